import { describe, expect, it } from 'vitest';
import { createLlmStatusService, type LlmStatusProvider } from './llm-status.service.js';

const up = (
  name: string,
  kind: 'local' | 'cloud',
  models: { name: string; running?: boolean }[],
): LlmStatusProvider => ({
  name,
  kind,
  probe: async () => models.map((m) => ({ name: m.name, running: m.running ?? false, sizeBytes: null })),
});
const down = (name: string, kind: 'local' | 'cloud' = 'local'): LlmStatusProvider => ({
  name,
  kind,
  probe: async () => {
    throw new Error(`${name} cannot be reached`);
  },
});
const counter = (n: number) => ({ totalMessages: () => n });

describe('llm pipeline status', () => {
  it('is running with the provider’s models, loaded ones first, and the request count', async () => {
    const service = createLlmStatusService({
      providers: () => [
        up('ollama', 'local', [{ name: 'qwen2.5:7b' }, { name: 'llama3.2:3b', running: true }]),
      ],
      requests: counter(7),
    });
    const status = await service.status();
    expect(status).toMatchObject({
      status: 'running',
      pipelineType: 'local',
      activeModels: 2,
      totalRequests: 7,
    });
    expect(status.models).toEqual([
      { name: 'llama3.2:3b', status: 'running', provider: 'ollama', sizeBytes: null },
      { name: 'qwen2.5:7b', status: 'available', provider: 'ollama', sizeBytes: null },
    ]);
    expect(status.providers[0]).toMatchObject({ name: 'ollama', status: 'online', error: null });
  });

  it('is offline when no provider answers', async () => {
    const status = await createLlmStatusService({
      providers: () => [down('ollama')],
      requests: counter(0),
    }).status();
    expect(status).toMatchObject({ status: 'offline', activeModels: 0, models: [] });
    expect(status.providers[0]).toMatchObject({
      status: 'offline',
      responseTime: null,
      error: 'ollama cannot be reached',
    });
  });

  it('is degraded when a provider answers without models, or one of several is down; hybrid with local and cloud', async () => {
    const empty = await createLlmStatusService({
      providers: () => [up('ollama', 'local', [])],
      requests: counter(0),
    }).status();
    expect(empty.status).toBe('degraded');
    const mixed = await createLlmStatusService({
      providers: () => [up('ollama', 'local', [{ name: 'a' }]), down('openai', 'cloud')],
      requests: counter(0),
    }).status();
    expect(mixed).toMatchObject({ status: 'degraded', pipelineType: 'hybrid' });
  });

  it('is none without providers', async () => {
    const status = await createLlmStatusService({ providers: () => [], requests: counter(0) }).status();
    expect(status).toMatchObject({ status: 'offline', pipelineType: 'none' });
  });

  it('probes at most once per few seconds, but counts requests fresh', async () => {
    let probes = 0;
    let requests = 1;
    let clock = 0;
    const service = createLlmStatusService({
      providers: () => [
        {
          name: 'ollama',
          kind: 'local',
          probe: async () => {
            probes++;
            return [];
          },
        },
      ],
      requests: { totalMessages: () => requests },
      now: () => clock,
    });
    await Promise.all([service.status(), service.status()]);
    requests = 2;
    expect((await service.status()).totalRequests).toBe(2);
    expect(probes).toBe(1);
    clock += 3_000;
    await service.status();
    expect(probes).toBe(2);
  });
});
