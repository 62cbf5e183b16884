import { describe, expect, it } from 'vitest';
import type { EngineContainerInspect } from '../../adapters/docker.js';
import { parseImageRef } from '../../adapters/registry.js';
import { buildCreateSpec, compareDigests, localDigestsFor } from './recreate.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

describe('image references and digests', () => {
  it('reads references as the engine does', () => {
    expect(parseImageRef('nginx')).toEqual({
      registry: 'docker.io',
      repository: 'library/nginx',
      tag: 'latest',
      digest: null,
    });
    expect(parseImageRef('127.0.0.1:45123/a/b:stable')).toMatchObject({
      registry: '127.0.0.1:45123',
      repository: 'a/b',
      tag: 'stable',
    });
    expect(parseImageRef(`ghcr.io/x/y@${D1}`)).toMatchObject({ digest: D1, tag: null });
    expect(parseImageRef('f'.repeat(64))).toBeNull();
  });

  it("counts only the reference's own repository, in Docker's short and Podman's long spelling", () => {
    expect(
      localDigestsFor('nginx:1', [`nginx@${D1}`, `docker.io/library/nginx@${D2}`, `other@${D2}`]),
    ).toEqual([D1, D2]);
    expect(localDigestsFor('nginx:1', [`other/nginx@${D1}`])).toEqual([]);
    expect(compareDigests([D1], D1)).toBe('up-to-date');
    expect(compareDigests([D1], D2)).toBe('update-available');
    expect(compareDigests([], D2)).toBe('update-available');
  });
});

describe('the create body', () => {
  const old = {
    Id: 'abcdef123456'.padEnd(64, '0'),
    Name: '/app',
    Image: D1,
    Config: {
      Hostname: 'abcdef123456',
      Image: 'app:1',
      Env: ['PATH=/bin', 'APP_VERSION=1', 'FOO=bar'],
      Cmd: ['serve'],
      Labels: { 'org.image': 'x', mine: 'yes' },
      Healthcheck: { Test: ['CMD-SHELL', 'true'], Interval: 1e9, Timeout: 3e10 },
    },
    HostConfig: { Binds: ['/srv:/srv'], RestartPolicy: { Name: 'unless-stopped' }, NetworkMode: 'web' },
    Mounts: [
      { Type: 'bind', Source: '/srv', Destination: '/srv', RW: true },
      { Type: 'volume', Name: 'anon123', Destination: '/cache', RW: true },
    ],
    NetworkSettings: { Networks: { web: { Aliases: ['abcdef123456', 'app'] }, other: { Aliases: [] } } },
    State: { Running: true },
  } as unknown as EngineContainerInspect;

  it("keeps the owner's settings and leaves the old image's defaults to the new image", () => {
    const { spec, extraNetworks } = buildCreateSpec(
      old,
      'app:1',
      'app',
      {
        Env: ['PATH=/bin', 'APP_VERSION=1'],
        Cmd: ['serve'],
        Labels: { 'org.image': 'x' },
        Healthcheck: { Test: ['CMD-SHELL', 'true'], Interval: 1e9, Timeout: 0 },
      },
      { Healthcheck: { Test: ['CMD-SHELL', 'check'] } },
    );
    expect(spec).toMatchObject({ name: 'app', Image: 'app:1', Env: ['FOO=bar'], Labels: { mine: 'yes' } });
    expect(spec.Cmd).toBeUndefined();
    expect(spec.Hostname).toBeUndefined();
    expect(spec.Healthcheck).toEqual({ Test: ['CMD-SHELL', 'check'] });
    expect(spec.HostConfig).toMatchObject({
      Binds: ['/srv:/srv'],
      RestartPolicy: { Name: 'unless-stopped' },
    });
    expect(spec.HostConfig?.Mounts).toEqual([
      { Type: 'volume', Source: 'anon123', Target: '/cache', ReadOnly: false },
    ]);
    expect(spec.NetworkingConfig).toEqual({ EndpointsConfig: { web: { Aliases: ['app'] } } });
    expect(extraNetworks).toEqual([{ name: 'other', aliases: [] }]);
  });
});
