import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error.js';
import { interpolate, parseDurationSeconds, planStack, shellWords } from './compose.js';

function failure(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected an HttpError');
}

const STACK = `
name: ignored-here
x-common: &common
  restart: unless-stopped
services:
  web:
    <<: *common
    image: localhost/busybox:test
    command: sh -c 'echo "hello world" && sleep 5'
    environment:
      GREETING: hi
      PORT: 8080
    ports:
      - "127.0.0.1:18080:80"
      - 9000-9001:9000-9001/udp
      - target: 443
        published: 18443
    volumes:
      - data:/data
      - /etc/localtime:/etc/localtime:ro
      - /cache
    labels:
      - tier=front
    depends_on:
      db:
        condition: service_healthy
  db:
    image: localhost/busybox:test
    environment:
      - MODE=primary
    healthcheck:
      test: ["CMD", "true"]
      interval: 1s
      retries: 3
    stop_grace_period: 1m30s
volumes:
  data:
`;

describe('planStack', () => {
  it('normalizes services, ports, volumes, environment and labels, in dependency order', () => {
    const plan = planStack(STACK);
    expect(plan.services.map((s) => s.name)).toEqual(['db', 'web']);
    const web = plan.services[1]!;
    expect(web.command).toEqual(['sh', '-c', 'echo "hello world" && sleep 5']);
    expect(web.environment).toEqual({ GREETING: 'hi', PORT: '8080' });
    expect(web.restart).toEqual({ name: 'unless-stopped', maxRetries: 0 });
    expect(web.labels).toEqual({ tier: 'front' });
    expect(web.ports).toEqual([
      { containerPort: 80, protocol: 'tcp', hostPort: '18080', hostIp: '127.0.0.1' },
      { containerPort: 9000, protocol: 'udp', hostPort: '9000', hostIp: null },
      { containerPort: 9001, protocol: 'udp', hostPort: '9001', hostIp: null },
      { containerPort: 443, protocol: 'tcp', hostPort: '18443', hostIp: null },
    ]);
    expect(web.volumes).toEqual([
      { type: 'volume', source: 'data', target: '/data', readOnly: false },
      { type: 'bind', source: '/etc/localtime', target: '/etc/localtime', readOnly: true },
      { type: 'anonymous', source: null, target: '/cache', readOnly: false },
    ]);
    expect(web.dependsOn).toEqual([{ service: 'db', condition: 'service_healthy' }]);
    expect(plan.services[0]!.environment).toEqual({ MODE: 'primary' });
    expect(plan.volumes).toEqual([{ key: 'data', name: null, external: false, driver: null, labels: {} }]);
  });

  it('reports a YAML syntax error as 400 with its line', () => {
    const err = failure(() => planStack('services:\n  web:\n    image: [unclosed\n  db:\n    image: x\n'));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/does not parse: line \d+/);
    expect((err.details as { line: number }).line).toBeGreaterThan(0);
  });

  it('reports a structural error with the line of the offending key', () => {
    const err = failure(() => planStack('services:\n  web:\n    image: x\n    restart: sometimes\n'));
    expect(err.status).toBe(400);
    expect(err.message).toContain('services.web.restart');
    expect(err.message).toContain('(line 4)');
  });

  it('refuses keys it would not deploy instead of dropping them', () => {
    const err = failure(() => planStack('services:\n  web:\n    build: .\n    image: x\n'));
    expect(err.message).toContain('build');
    expect(err.message).toContain('line 3');
  });

  it('refuses a dependency cycle, an unknown dependency and an undeclared volume', () => {
    expect(
      failure(() =>
        planStack(
          'services:\n  a:\n    image: x\n    depends_on: [b]\n  b:\n    image: x\n    depends_on: [a]\n',
        ),
      ).message,
    ).toContain('cycle');
    expect(
      failure(() => planStack('services:\n  a:\n    image: x\n    depends_on: [nope]\n')).message,
    ).toContain('nope');
    expect(
      failure(() => planStack('services:\n  a:\n    image: x\n    volumes: [vol:/x]\n')).message,
    ).toContain('not declared');
    expect(
      failure(() => planStack('services:\n  a:\n    image: x\n    volumes: [./rel:/x]\n')).message,
    ).toContain('absolute');
  });

  it('needs at least one service and a mapping at the top', () => {
    expect(failure(() => planStack('services: {}\n')).status).toBe(400);
    expect(failure(() => planStack('- just\n- a list\n')).status).toBe(400);
  });

  it('interpolates variables, with defaults, required values and $$ escapes', () => {
    const plan = planStack(
      'services:\n  a:\n    image: ${IMAGE:-localhost/busybox:test}\n    command: echo $$HOME ${WHO}\n    ports: ["${PORT}:80"]\n',
      { WHO: 'nexus', PORT: '18999' },
    );
    const a = plan.services[0]!;
    expect(a.image).toBe('localhost/busybox:test');
    expect(a.command).toEqual(['echo', '$HOME', 'nexus']);
    expect(a.ports[0]!.hostPort).toBe('18999');
    const err = failure(() => planStack('services:\n  a:\n    image: ${IMAGE:?pick an image}\n'));
    expect(err.message).toContain('pick an image');
    expect(err.message).toContain('line 3');
  });
});

describe('helpers', () => {
  it('interpolate follows the compose rules for unset and empty values', () => {
    const unset: string[] = [];
    const vars = { EMPTY: '', SET: 'v' };
    expect(
      interpolate('${EMPTY:-d}|${EMPTY-d}|${NONE-d}|${SET:+alt}|${NONE:+alt}|$NONE', vars, (n) =>
        unset.push(n),
      ),
    ).toBe('d||d|alt||');
    expect(unset).toEqual(['NONE']);
  });

  it('shellWords splits like a POSIX shell without expanding', () => {
    expect(shellWords(`--model tiny-int8 --name "two words" 'it''s' a\\ b`)).toEqual([
      '--model',
      'tiny-int8',
      '--name',
      'two words',
      'its',
      'a b',
    ]);
  });

  it('parseDurationSeconds reads compose durations', () => {
    expect(parseDurationSeconds('1m30s')).toBe(90);
    expect(parseDurationSeconds('500ms')).toBe(0.5);
  });
});
