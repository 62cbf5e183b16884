import { describe, expect, it } from 'vitest';
import type { Deployment } from '@nexus/agent/contract';
import { errorLine, imagePercent, initialProgress, reduceDeploy } from './deploy-progress';

const deployment = { id: 1, stack: 's', result: 'failed' } as unknown as Deployment;

describe('deploy progress', () => {
  it('tracks per-layer pull progress and the image total', () => {
    let state = initialProgress();
    state = reduceDeploy(state, { type: 'step', message: 'Pulling img' });
    state = reduceDeploy(state, {
      type: 'pull',
      image: 'img',
      layer: null,
      status: 'Pulling from library/img',
      current: null,
      total: null,
    });
    state = reduceDeploy(state, {
      type: 'pull',
      image: 'img',
      layer: 'a',
      status: 'Downloading',
      current: 50,
      total: 100,
    });
    state = reduceDeploy(state, {
      type: 'pull',
      image: 'img',
      layer: 'b',
      status: 'Downloading',
      current: 0,
      total: 300,
    });
    state = reduceDeploy(state, {
      type: 'pull',
      image: 'img',
      layer: 'a',
      status: 'Downloading',
      current: 100,
      total: 100,
    });
    expect(state.images).toHaveLength(1);
    expect(state.images[0]!.layers.map((l) => l.id)).toEqual(['a', 'b']);
    expect(imagePercent(state.images[0]!)).toBe(25);
    state = reduceDeploy(state, { type: 'pulled', image: 'img' });
    expect(imagePercent(state.images[0]!)).toBe(100);
    expect(state.steps).toEqual(['Pulling img']);
  });

  it('ends failed with the engine message and the deployment record', () => {
    let state = initialProgress();
    state = reduceDeploy(state, {
      type: 'error',
      status: 502,
      message: 'Pulling x failed: no such host',
      details: { deployment },
    });
    expect(state.phase).toBe('failed');
    expect(state.error?.message).toBe('Pulling x failed: no such host');
    expect(state.deployment).toBe(deployment);
  });

  it('reads the line of a compose error', () => {
    expect(errorLine({ line: 4 })).toBe(4);
    expect(errorLine(undefined)).toBeNull();
  });
});
