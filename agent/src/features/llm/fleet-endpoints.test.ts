import { describe, expect, it } from 'vitest';
import { isOllamaImage, swarmOllamaSource } from './fleet-endpoints.js';

const service = (id: string, image: string, labels: Record<string, string> = {}) => ({
  ID: id,
  Spec: { Name: id, Labels: labels, TaskTemplate: { ContainerSpec: { Image: image } } },
});
const task = (id: string, serviceId: string, nodeId: string, port: number | null, state = 'running') => ({
  ID: id,
  ServiceID: serviceId,
  NodeID: nodeId,
  DesiredState: 'running',
  Status: {
    State: state,
    PortStatus: {
      Ports:
        port === null
          ? []
          : [{ Protocol: 'tcp', TargetPort: 11434, PublishedPort: port, PublishMode: 'host' }],
    },
  },
});
const node = (id: string, hostname: string, addr: string, managerAddr?: string) => ({
  ID: id,
  Description: { Hostname: hostname },
  Status: { State: 'ready', Addr: addr },
  ManagerStatus: managerAddr ? { Addr: managerAddr } : undefined,
});

describe('isOllamaImage', () => {
  it('knows ollama/ollama under any tag, digest or registry, and nothing else', () => {
    expect(isOllamaImage('ollama/ollama')).toBe(true);
    expect(isOllamaImage('ollama/ollama:0.6.5@sha256:abc')).toBe(true);
    expect(isOllamaImage('docker.io/ollama/ollama:latest')).toBe(true);
    expect(isOllamaImage('registry.local:5000/ollama/ollama')).toBe(true);
    expect(isOllamaImage('ollama/ollama-proxy')).toBe(false);
    expect(isOllamaImage('evil/ollama')).toBe(false);
    expect(isOllamaImage(undefined)).toBe(false);
  });
});

describe('swarmOllamaSource', () => {
  it('makes an endpoint of every running Ollama task with a host-mode port, at its node’s address', async () => {
    const source = swarmOllamaSource({
      listServices: async () =>
        [
          service('s1', 'ollama/ollama:0.6.5'),
          service('s2', 'dustynv/ollama:r36.4.0', { 'nexus.llm': 'ollama' }),
          service('s3', 'nginx:1.27'),
        ] as never,
      listTasks: async () =>
        [
          task('t1aaaaaaaaaaaaaa', 's1', 'n1', 11434),
          task('t2bbbbbbbbbbbbbb', 's2', 'n2', 21434),
          task('t3', 's1', 'n3', 11434, 'pending'),
          task('t4', 's3', 'n1', 80),
          task('t5', 's1', 'n3', null),
          { nonsense: true },
        ] as never,
      listNodes: async () =>
        [
          // A manager may report 0.0.0.0 as its address: its manager address says where it is.
          node('n1', 'orin-agx', '0.0.0.0', '10.0.0.5:2377'),
          node('n2', 'orin-nano', 'fd00::7'),
          node('n3', 'garage', '10.0.0.9'),
        ] as never,
    });
    expect(await source.list()).toEqual([
      { id: 't1aaaaaaaaaa', node: 'orin-agx', url: 'http://10.0.0.5:11434' },
      { id: 't2bbbbbbbbbb', node: 'orin-nano', url: 'http://[fd00::7]:21434' },
    ]);
  });

  it('asks for no tasks or nodes when no service runs Ollama', async () => {
    const asked: string[] = [];
    const source = swarmOllamaSource({
      listServices: async () => [service('s3', 'nginx')] as never,
      listTasks: async () => (asked.push('tasks'), []),
      listNodes: async () => (asked.push('nodes'), []),
    });
    expect(await source.list()).toEqual([]);
    expect(asked).toEqual([]);
  });
});
