import { describe, expect, it } from 'vitest';
import type { HaStatus } from '../../contract/home-assistant.js';
import type { SpeechSettings } from '../../contract/speech.js';
import type { VpnStatus } from '../../contract/status.js';
import { createIntegrationsService, type IntegrationsDeps } from './integrations.service.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');

function deps(over: Partial<IntegrationsDeps> = {}): IntegrationsDeps {
  let vpnReads = 0;
  return {
    homeAssistant: {
      status: () => ({ state: 'not_configured', health: 'not_configured' }) as unknown as HaStatus,
      settings: () => ({ configured: false, url: null }),
      connectionTest: async () => ({ ok: false, steps: [], totalMs: 0, haVersion: null, testedAt: NOW }),
    },
    ollama: {
      version: async () => {
        throw new Error('connect ECONNREFUSED 10.9.9.9:11434');
      },
    },
    ollamaUrl: 'http://10.9.9.9:11434',
    llmProviders: () => [
      {
        name: 'OpenAI',
        kind: 'cloud',
        probe: async () => [{ name: 'gpt', running: false, sizeBytes: null }],
      },
      {
        name: 'Groq',
        kind: 'cloud',
        probe: async () => {
          throw new Error('401 from https://api.groq.example/v1 key sk-secret');
        },
      },
    ],
    speech: {
      settings: () =>
        ({
          stt: { engine: 'wyoming', wyomingHost: 'whisper.lan', wyomingPort: 10300 },
          tts: { engine: null, host: null, port: 10200 },
        }) as unknown as SpeechSettings,
      probe: async ({ port }) => ({
        host: 'whisper.lan',
        port,
        ms: 12,
        programs:
          port === 10300
            ? [
                {
                  kind: 'asr',
                  name: 'faster-whisper',
                  description: null,
                  installed: true,
                  version: '2.4',
                  attribution: null,
                  models: [],
                },
              ]
            : [],
      }),
    },
    smtp: { url: 'smtp://user:pw@mail.lan:587', verify: async () => undefined },
    ntfyStatus: () => ({
      configured: true,
      enabled: true,
      server: 'https://ntfy.lan',
      lastError: 'HTTP 500',
    }),
    vpn: {
      status: async () => {
        vpnReads++;
        return {
          wireguard: [{ name: 'wg0', peers: [{ connected: true }, { connected: false }] }],
          tailscale: { backendState: 'Stopped', peers: [], tailscaleIps: [], hostName: null, tailnet: null },
          provider: 'wireguard',
          latency: 20,
          reads: vpnReads,
        } as unknown as VpnStatus;
      },
    },
    subscription: {
      status: () =>
        ({
          plan: 'pro',
          status: 'trialing',
          trialEndDate: new Date(NOW + 3 * 86_400_000).toISOString(),
        }) as never,
    },
    now: () => NOW,
    ...over,
  };
}

describe('integrations', () => {
  it('reads each integration from its feature', async () => {
    const { integrations } = await createIntegrationsService(deps()).list('admin');
    const state = Object.fromEntries(integrations.map((i) => [i.id, i.state]));
    expect(state).toEqual({
      'home-assistant': 'not_configured',
      ollama: 'disconnected',
      'llm-providers': 'degraded',
      'wyoming-stt': 'connected',
      'wyoming-tts': 'not_configured',
      'wyoming-wake': 'degraded',
      smtp: 'connected',
      ntfy: 'degraded',
      vpn: 'connected',
      tailscale: 'disconnected',
      licence: 'degraded',
    });
    const byId = Object.fromEntries(integrations.map((i) => [i.id, i]));
    expect(byId.vpn!.detail).toContain('1 of 2 peers connected on wg0');
    expect(byId.licence!.detail).toContain('3 days left');
    // Admins see where things are; never the SMTP password.
    expect(byId.smtp!.detail).toContain('smtp://mail.lan:587');
    expect(JSON.stringify(integrations)).not.toContain('pw@');
  });

  it('gives members no addresses, hosts or error texts', async () => {
    const text = JSON.stringify(await createIntegrationsService(deps()).list('user'));
    for (const secret of [
      '10.9.9.9',
      'whisper.lan',
      'mail.lan',
      'ntfy.lan',
      'groq.example',
      'sk-secret',
      'wg0',
      'HTTP 500',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('tests again for real while the list is served from the last check', async () => {
    let calls = 0;
    const service = createIntegrationsService(
      deps({
        ollama: {
          version: async () => {
            calls++;
            return '0.12.0';
          },
        },
      }),
    );
    await service.list('admin');
    await service.list('admin');
    expect(calls).toBe(1);
    const result = await service.test('ollama', 'admin');
    expect(calls).toBe(2);
    expect(result).toMatchObject({ ok: true, integration: { state: 'connected' } });
    expect(result.message).toContain('Ollama 0.12.0');
  });

  it('reads the Home Assistant connection fresh on every list: one that just came up shows as connected', async () => {
    let state: HaStatus['state'] = 'connecting';
    const service = createIntegrationsService(
      deps({
        homeAssistant: {
          status: () =>
            ({
              state,
              health: state === 'connected' ? 'healthy' : 'down',
              counts: { states: 3 },
            }) as unknown as HaStatus,
          settings: () => ({ configured: true, url: 'http://ha.lan:8123' }),
          connectionTest: async () => ({ ok: true, steps: [], totalMs: 0, haVersion: null, testedAt: NOW }),
        },
      }),
    );
    const first = await service.list('admin');
    expect(first.integrations.find((i) => i.id === 'home-assistant')!.state).toBe('disconnected');
    state = 'connected';
    const second = await service.list('admin');
    expect(second.integrations.find((i) => i.id === 'home-assistant')).toMatchObject({
      state: 'connected',
      detail: expect.stringContaining('Connected to Home Assistant'),
    });
  });

  it('a degraded Home Assistant connection says why', async () => {
    const service = createIntegrationsService(
      deps({
        homeAssistant: {
          status: () =>
            ({
              state: 'connected',
              health: 'degraded',
              message: 'Home Assistant answers slowly (1234 ms)',
              counts: { states: 3 },
            }) as unknown as HaStatus,
          settings: () => ({ configured: true, url: 'http://ha.lan:8123' }),
          connectionTest: async () => ({ ok: true, steps: [], totalMs: 0, haVersion: null, testedAt: NOW }),
        },
      }),
    );
    const { integrations } = await service.list('admin');
    expect(integrations.find((i) => i.id === 'home-assistant')).toMatchObject({
      state: 'degraded',
      detail:
        'Connected to Home Assistant, 3 entities at http://ha.lan:8123; Home Assistant answers slowly (1234 ms)',
    });
  });

  it('shows ntfy as not set up until the notifications feature supplies its status', async () => {
    const { integrations } = await createIntegrationsService(deps({ ntfyStatus: undefined })).list('admin');
    expect(integrations.find((i) => i.id === 'ntfy')!.state).toBe('not_configured');
  });
});
