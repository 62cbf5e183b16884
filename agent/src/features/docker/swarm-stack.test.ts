import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error.js';
import { planStack } from './compose.js';
import { fleetNames, fleetWarnings, networksToCreate, toServiceSpec } from './swarm-stack.js';

function failure(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected an HttpError');
}

const COMPOSE = `
services:
  api:
    image: example/api:1
    entrypoint: /bin/api
    command: --port 8080
    restart: on-failure:4
    ports:
      - "8080:8080"
      - target: 9090
        published: 9090
        mode: ingress
    volumes:
      - data:/var/lib/api
      - /srv/conf:/conf:ro
      - /scratch
    extra_hosts:
      - "printer:10.0.0.9"
    networks: [back]
  cache:
    image: example/cache:2
    deploy:
      mode: global
volumes:
  data:
    driver: local
networks:
  back:
  outside:
    external: true
    name: shared-net
`;

describe('toServiceSpec', () => {
  const plan = planStack(COMPOSE, {}, { target: 'fleet' });
  const names = fleetNames('shop', plan);
  const spec = (service: string) =>
    toServiceSpec(
      'shop',
      plan.services.find((s) => s.name === service)!,
      names,
      plan,
      7,
    ) as Record<string, any>;

  it('names and labels services, networks and volumes as docker stack deploy does', () => {
    const api = spec('api');
    expect(api.Name).toBe('shop_api');
    expect(api.Labels).toEqual({
      'com.docker.stack.namespace': 'shop',
      'com.docker.stack.image': 'example/api:1',
      'io.nexus.console.deployment': '7',
    });
    expect(api.TaskTemplate.ContainerSpec.Labels).toEqual({ 'com.docker.stack.namespace': 'shop' });
    expect(api.TaskTemplate.Networks).toEqual([{ Target: 'shop_back', Aliases: ['api'] }]);
    expect(networksToCreate(plan, names).map((n) => n.name)).toEqual(['shop_back', 'shop_default']);
    expect(names.network('outside')).toBe('shared-net');
  });

  it("maps entrypoint to Command and command to Args, compose's restart to a restart policy", () => {
    const api = spec('api');
    expect(api.TaskTemplate.ContainerSpec.Command).toEqual(['/bin/api']);
    expect(api.TaskTemplate.ContainerSpec.Args).toEqual(['--port', '8080']);
    expect(api.TaskTemplate.RestartPolicy).toEqual({ Condition: 'on-failure', MaxAttempts: 4 });
    expect(api.TaskTemplate.ContainerSpec.Hosts).toEqual(['10.0.0.9 printer']);
  });

  it('publishes ports in host mode unless the file asks for ingress, and says so', () => {
    expect(spec('api').EndpointSpec.Ports).toEqual([
      { Protocol: 'tcp', TargetPort: 8080, PublishedPort: 8080, PublishMode: 'host' },
      { Protocol: 'tcp', TargetPort: 9090, PublishedPort: 9090, PublishMode: 'ingress' },
    ]);
    expect(fleetWarnings(plan).join(' ')).toMatch(/api: ports are published in host mode/);
  });

  it('mounts named volumes (labelled, with their driver), binds and anonymous volumes', () => {
    expect(spec('api').TaskTemplate.ContainerSpec.Mounts).toEqual([
      {
        Type: 'volume',
        Source: 'shop_data',
        Target: '/var/lib/api',
        ReadOnly: false,
        VolumeOptions: { Labels: { 'com.docker.stack.namespace': 'shop' }, DriverConfig: { Name: 'local' } },
      },
      { Type: 'bind', Source: '/srv/conf', Target: '/conf', ReadOnly: true },
      { Type: 'volume', Target: '/scratch', ReadOnly: false },
    ]);
  });

  it('makes a global service, and a replicated one with one replica by default', () => {
    expect(spec('cache').Mode).toEqual({ Global: {} });
    expect(spec('api').Mode).toEqual({ Replicated: { Replicas: 1 } });
  });
});

describe('planStack targets', () => {
  it('refuses swarm-only deploy keys on the hub, naming the line', () => {
    const err = failure(() =>
      planStack(
        'services:\n  a:\n    image: x\n    deploy:\n      placement:\n        constraints: [a==b]\n',
      ),
    );
    expect(err.status).toBe(400);
    expect(err.message).toMatch(
      /^services\.a\.deploy\.placement is honoured only on the fleet \(swarm services\): deploy the stack to the fleet, or remove it \(line \d\)$/,
    );
  });

  it('refuses on the fleet what swarm cannot do, and warns of what it ignores', () => {
    expect(
      failure(() =>
        planStack('services:\n  a:\n    image: x\n    privileged: true\n', {}, { target: 'fleet' }),
      ).message,
    ).toMatch(/privileged cannot be deployed to the fleet.*\(line 4\)/);
    expect(
      failure(() =>
        planStack('services:\n  a:\n    image: x\n    ports: ["127.0.0.1:80:80"]\n', {}, { target: 'fleet' }),
      ).message,
    ).toMatch(/names a host address/);
    const plan = planStack(
      'services:\n  a:\n    image: x\n    pull_policy: always\n    depends_on: [b]\n  b:\n    image: x\n',
      {},
      { target: 'fleet' },
    );
    expect(plan.warnings.join(' ')).toMatch(/pull_policy is ignored on the fleet.*depends_on is ignored/);
  });
});
