import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { FleetNode, FleetService, FleetTask } from '@nexus/agent/contract';
import { anyServiceUpdating } from '@/data/fleet';
import {
  constraintOptions,
  fleetTarget,
  isConstraint,
  memoryWords,
  nodesMatching,
  replicaWords,
  rowsToLabels,
  taskReason,
  updateProgress,
  withPlacementConstraints,
} from './fleet-logic';

function node(over: Partial<FleetNode>): FleetNode {
  return {
    id: 'n1',
    hostname: 'orin-agx',
    role: 'manager',
    leader: true,
    self: true,
    availability: 'active',
    status: 'ready',
    statusMessage: null,
    addr: '127.0.0.1',
    engineVersion: '26.1.5',
    os: 'linux',
    arch: 'aarch64',
    cpus: 12,
    memoryBytes: 64 * 1024 ** 3,
    labels: {},
    nexus: null,
    ...over,
  };
}

function task(over: Partial<FleetTask>): FleetTask {
  return {
    id: 't1',
    slot: 1,
    nodeId: null,
    nodeHostname: null,
    desiredState: 'running',
    state: 'pending',
    message: 'pending task scheduling',
    error: null,
    containerId: null,
    image: 'nginx:alpine',
    updatedAt: null,
    ...over,
  };
}

function service(over: Partial<FleetService>): FleetService {
  return {
    id: 's1',
    name: 'voice_piper',
    stack: 'voice',
    image: 'nginx:alpine',
    mode: 'replicated',
    replicas: 2,
    running: 1,
    constraints: [],
    ports: [],
    updateStatus: null,
    canRollback: false,
    createdAt: null,
    updatedAt: null,
    tasks: [],
    ...over,
  };
}

const status = {
  state: 'active' as const,
  role: 'manager' as const,
  nodeId: 'n1',
  clusterId: 'c1',
  nodeAddr: '127.0.0.1',
  nodes: 1,
  managers: 1,
  error: null,
  canManage: true,
};

describe('the fleet as a deploy target', () => {
  it('is offered only on a manager in an active swarm, and says why not otherwise', () => {
    expect(fleetTarget(status)).toEqual({ available: true, reason: null });
    expect(fleetTarget({ ...status, state: 'inactive', role: null, canManage: false }).reason).toMatch(
      /no fleet yet/,
    );
    expect(fleetTarget({ ...status, role: 'worker', canManage: false }).reason).toMatch(/worker/);
    expect(fleetTarget(undefined).available).toBe(false);
  });
});

describe('placement constraints', () => {
  const nodes = [
    node({ labels: { 'nexus.gpu': 'orin-agx', 'nexus.role': 'llm' } }),
    node({
      id: 'n2',
      hostname: 'orin-nano',
      role: 'worker',
      leader: false,
      labels: { 'nexus.role': 'voice' },
    }),
  ];

  it("offers each node label, each role and each hostname in the engine's syntax", () => {
    expect(constraintOptions(nodes)).toEqual([
      'node.labels.nexus.gpu==orin-agx',
      'node.labels.nexus.role==llm',
      'node.labels.nexus.role==voice',
      'node.role==manager',
      'node.role==worker',
      'node.hostname==orin-agx',
      'node.hostname==orin-nano',
    ]);
    expect(constraintOptions(nodes).every(isConstraint)).toBe(true);
  });

  it('refuses text the engine would not take as a constraint', () => {
    expect(isConstraint('node.labels.nexus.role==voice')).toBe(true);
    expect(isConstraint('node.role != worker')).toBe(true);
    expect(isConstraint('role=voice')).toBe(false);
    expect(isConstraint('node.labels.==x')).toBe(false);
    expect(isConstraint('node.labels.a==')).toBe(false);
  });

  it('counts the nodes a choice leaves (none for a label nothing carries)', () => {
    expect(nodesMatching(nodes, ['node.labels.nexus.role==voice']).map((n) => n.hostname)).toEqual([
      'orin-nano',
    ]);
    expect(nodesMatching(nodes, ['node.role!=worker']).map((n) => n.hostname)).toEqual(['orin-agx']);
    expect(nodesMatching(nodes, ['node.labels.nexus.role==tts'])).toEqual([]);
    expect(nodesMatching(nodes, [])).toHaveLength(2);
  });

  it("writes them into every service's deploy.placement.constraints, keeping what is there", async () => {
    const compose = `# voice
services:
  piper:
    image: piper
    deploy:
      replicas: 2
      placement:
        constraints: [node.role==worker]
  whisper:
    image: whisper
`;
    const out = await withPlacementConstraints(compose, [
      'node.labels.nexus.role==voice',
      'node.role==worker',
    ]);
    expect(out.startsWith('# voice')).toBe(true);
    const parsed = parse(out) as {
      services: Record<string, { deploy: { replicas?: number; placement: { constraints: string[] } } }>;
    };
    expect(parsed.services.piper?.deploy.placement.constraints).toEqual([
      'node.role==worker',
      'node.labels.nexus.role==voice',
    ]);
    expect(parsed.services.piper?.deploy.replicas).toBe(2);
    expect(parsed.services.whisper?.deploy.placement.constraints).toEqual([
      'node.labels.nexus.role==voice',
      'node.role==worker',
    ]);
  });

  it('leaves the file alone without constraints, and says what is wrong with a broken one', async () => {
    await expect(withPlacementConstraints('not: [valid', [])).resolves.toBe('not: [valid');
    await expect(withPlacementConstraints('services: [oops', ['node.role==worker'])).rejects.toThrow(
      /not valid YAML/,
    );
    await expect(withPlacementConstraints('version: "3"\n', ['node.role==worker'])).rejects.toThrow(
      /no services/,
    );
    await expect(
      withPlacementConstraints(
        'services:\n  a:\n    image: x\n    deploy:\n      placement:\n        constraints: yes\n',
        ['node.role==worker'],
      ),
    ).rejects.toThrow(/not a list/);
  });
});

describe('node labels from the editor', () => {
  it('turns rows into labels, dropping empty rows', () => {
    expect(
      rowsToLabels([
        { key: 'nexus.gpu', value: 'orin-agx' },
        { key: '', value: '' },
        { key: ' nexus.role ', value: ' voice ' },
      ]),
    ).toEqual({ labels: { 'nexus.gpu': 'orin-agx', 'nexus.role': 'voice' } });
  });

  it('refuses a key the engine refuses, a value without a key and a key given twice', () => {
    expect(rowsToLabels([{ key: 'bad key', value: 'x' }])).toHaveProperty('error');
    expect(rowsToLabels([{ key: '-x', value: 'x' }])).toHaveProperty('error');
    expect(rowsToLabels([{ key: '', value: 'x' }])).toHaveProperty('error');
    expect(
      rowsToLabels([
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ]),
    ).toEqual({ error: 'a is given twice' });
  });

  it('says memory in GiB', () => {
    expect(memoryWords(8 * 1024 ** 3)).toBe('8 GiB');
    expect(memoryWords(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(memoryWords(512 * 1024 ** 2)).toBe('512 MiB');
    expect(memoryWords(null)).toBe('unknown');
  });
});

describe('tasks and updates in words', () => {
  it("names the constraint nothing satisfies instead of the scheduler's count", () => {
    const pending = task({
      error: 'no suitable node (scheduling constraints not satisfied on 1 node)',
    });
    expect(taskReason(pending, { constraints: ['node.labels.nexus.role==voice'] })).toBe(
      'No node matches: node.labels.nexus.role==voice',
    );
    expect(
      taskReason(task({ error: 'no suitable node (insufficient resources on 2 nodes)' }), {
        constraints: [],
      }),
    ).toBe('No node has the CPU or memory it reserves');
    expect(taskReason(task({}), { constraints: [] })).toBe('Waiting for a node');
    expect(taskReason(task({ state: 'running', message: 'started' }), { constraints: [] })).toBeNull();
    expect(
      taskReason(task({ state: 'rejected', error: 'No such image: nope:1' }), { constraints: [] }),
    ).toMatch(/could not be pulled/);
  });

  it('says replicas as running/desired', () => {
    expect(replicaWords({ mode: 'replicated', replicas: 3, running: 2 })).toBe('2/3 running');
    expect(replicaWords({ mode: 'global', replicas: null, running: 4 })).toBe('4 running (global)');
  });

  it('shows an update as progress and polls fast only while one runs', () => {
    const updating = service({
      image: 'nginx:1.27',
      updateStatus: { state: 'updating', message: null, startedAt: null, completedAt: null },
      tasks: [
        task({ id: 'a', slot: 1, state: 'running', image: 'nginx:1.27' }),
        task({ id: 'b', slot: 2, state: 'running', image: 'nginx:1.26' }),
        task({ id: 'c', slot: 2, state: 'shutdown', desiredState: 'shutdown', image: 'nginx:1.26' }),
      ],
    });
    expect(updateProgress(updating)).toEqual({
      label: 'Updating',
      tone: 'warning',
      active: true,
      percent: 50,
    });
    expect(anyServiceUpdating([updating])).toBe(true);
    const done = service({
      updateStatus: { state: 'completed', message: null, startedAt: null, completedAt: null },
    });
    expect(updateProgress(done)?.label).toBe('Update completed');
    expect(anyServiceUpdating([done, service({})])).toBe(false);
    expect(
      anyServiceUpdating([
        service({
          updateStatus: { state: 'rollback_started', message: null, startedAt: null, completedAt: null },
        }),
      ]),
    ).toBe(true);
    expect(updateProgress(service({}))).toBeNull();
  });
});
