import { describe, expect, it } from 'vitest';
import type { ContainerUpdateCheck } from '@nexus/agent/contract';
import { checkForContainer, describeResult, shortImageId, updateStep } from './update-steps';

const check = (over: Partial<ContainerUpdateCheck>): ContainerUpdateCheck => ({
  containerId: 'a'.repeat(64),
  name: 'web',
  image: 'nginx:1',
  state: 'up-to-date',
  localDigest: null,
  remoteDigest: null,
  reason: null,
  isHub: false,
  checkedAt: '2024-01-01T00:00:00.000Z',
  ...over,
});

describe('container update words', () => {
  it('shortens image ids as the docker CLI does', () => {
    expect(shortImageId(`sha256:${'0123456789abcdef'.repeat(4)}`)).toBe('0123456789ab');
    expect(shortImageId('0123456789abcdef')).toBe('0123456789ab');
  });

  it("reads the step from the old container's kept name, and only that container's", () => {
    expect(updateStep('web', ['web', 'db'])).toBe('pulling');
    expect(updateStep('web', ['web-nexus-previous-lq2x9', 'db'])).toBe('proving');
    expect(updateStep('web', ['webapp-nexus-previous-lq2x9'])).toBe('pulling');
  });

  it('finds a row’s check by id, then by name after the container was recreated', () => {
    const checks = [check({ containerId: 'old', name: 'web' }), check({ containerId: 'x', name: 'db' })];
    expect(checkForContainer(checks, { id: 'x', name: 'renamed' })?.name).toBe('db');
    expect(checkForContainer(checks, { id: 'new', name: 'web' })?.containerId).toBe('old');
    expect(checkForContainer(checks, { id: 'none', name: 'none' })).toBeUndefined();
    expect(checkForContainer(undefined, { id: 'x', name: 'db' })).toBeUndefined();
  });

  it('says updated from → to, already up to date, or rolled back with the reason', () => {
    const a = `sha256:${'a'.repeat(64)}`;
    const b = `sha256:${'b'.repeat(64)}`;
    expect(describeResult('web', { result: 'updated', from: a, to: b })).toEqual({
      title: 'web updated',
      text: 'From image aaaaaaaaaaaa to bbbbbbbbbbbb; the old container was removed.',
    });
    expect(describeResult('web', { result: 'updated', from: a, to: a }).title).toBe('web is up to date');
    const back = describeResult('web', {
      result: 'rolled-back',
      from: a,
      to: a,
      reason: "The new container's healthcheck failed",
    });
    expect(back.title).toBe('Update of web rolled back');
    expect(back.text).toContain('healthcheck failed. web runs its previous image (aaaaaaaaaaaa) again.');
  });
});
