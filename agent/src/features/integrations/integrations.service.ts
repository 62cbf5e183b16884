import type { Role } from '../../contract/auth.js';
import type { HaConnectionTestResult, HaStatus } from '../../contract/home-assistant.js';
import {
  INTEGRATION_IDS,
  type Integration,
  type IntegrationId,
  type IntegrationList,
  type IntegrationTestResult,
} from '../../contract/integrations.js';
import type { SpeechProbeResult, SpeechSettings } from '../../contract/speech.js';
import type { SubscriptionStatus } from '../../contract/subscription.js';
import type { VpnStatus } from '../../contract/status.js';
import type { LlmStatusProvider } from '../llm-status/index.js';

/** A check's outcome; `adminDetail` adds what only admins see (addresses, hosts, error texts). */
interface Check {
  state: Integration['state'];
  detail: string;
  adminDetail?: string;
  /** For "test now": whether the check passed and what it found, in a sentence. */
  ok: boolean;
}

/** GET /api/integrations re-probes an integration at most this often; "test now" always does. */
const CHECK_TTL_MS = 30_000;
/**
 * Integrations whose state the hub already holds in memory (the HA connection's status, the plan):
 * reading them probes nothing, so a list always reads them fresh. Caching them for 30 s showed a
 * connection that had just come up as "not connected" until the next refetch.
 */
const READ_LIVE: ReadonlySet<IntegrationId> = new Set(['home-assistant', 'licence']);
/** The Wyoming openWakeWord service's default port, on the host that runs the other speech services. */
export const WYOMING_WAKE_PORT = 10400;

export interface NtfyChannelStatus {
  /** A server URL and topic are stored. */
  configured: boolean;
  enabled: boolean;
  /** The server's address (admins only). */
  server?: string | null;
  lastError?: string | null;
}

export interface IntegrationsDeps {
  homeAssistant: {
    status(): HaStatus;
    settings(): { configured: boolean; url: string | null };
    connectionTest(input: { url?: string; token?: string }): Promise<HaConnectionTestResult>;
  };
  ollama: { version(timeoutMs?: number): Promise<string> };
  ollamaUrl: string;
  llmProviders: () => LlmStatusProvider[];
  speech: {
    settings(): SpeechSettings;
    probe(input: { host: string; port: number }): Promise<SpeechProbeResult>;
  };
  smtp: { url: string | null; verify?: () => Promise<void> };
  /** From the notifications feature (its ntfy channel); without it ntfy shows as not set up. */
  ntfyStatus?: () => NtfyChannelStatus;
  vpn: { status(): Promise<VpnStatus> };
  subscription: { status(): SubscriptionStatus };
  now?: () => number;
}

const STATIC: Record<IntegrationId, Pick<Integration, 'name' | 'unlocks' | 'settingsHref' | 'testable'>> = {
  'home-assistant': {
    name: 'Home Assistant',
    unlocks:
      'Entities, devices and automations on the console, voice commands that act on the home, flows that call services',
    settingsHref: '/ha-connection-setup',
    testable: true,
  },
  ollama: {
    name: 'Ollama',
    unlocks: 'Local language models for chat, voice answers and flows, without sending anything to the cloud',
    settingsHref: '/ollama',
    testable: true,
  },
  'llm-providers': {
    name: 'Cloud LLM providers',
    unlocks: 'Larger cloud models beside the local ones, chosen by the LLM router',
    settingsHref: '/llm',
    testable: true,
  },
  'wyoming-stt': {
    name: 'Wyoming speech to text',
    unlocks: 'Transcribing what satellites hear (Whisper), for voice commands',
    settingsHref: '/llm',
    testable: true,
  },
  'wyoming-tts': {
    name: 'Wyoming text to speech',
    unlocks: 'Spoken answers on satellites (Piper)',
    settingsHref: '/llm',
    testable: true,
  },
  'wyoming-wake': {
    name: 'Wyoming wake word',
    unlocks: 'Wake-word detection on the hub for satellites that stream audio (openWakeWord)',
    settingsHref: '/wake-words',
    testable: true,
  },
  smtp: {
    name: 'E-mail (SMTP)',
    unlocks: 'Password-reset links and e-mail notifications',
    settingsHref: '/settings',
    testable: true,
  },
  ntfy: {
    name: 'ntfy',
    unlocks: 'Push notifications to phones through an ntfy server',
    settingsHref: '/settings',
    testable: true,
  },
  vpn: {
    name: 'VPN (WireGuard)',
    unlocks: 'Reaching the hub from outside the home over WireGuard',
    settingsHref: '/network-info',
    testable: true,
  },
  tailscale: {
    name: 'Tailscale',
    unlocks: 'Reaching the hub from anywhere on your tailnet, and VPN failover',
    settingsHref: '/network-info',
    testable: true,
  },
  licence: {
    name: 'Licence',
    unlocks: 'The plan’s limits: AI messages per month, satellites, cloud models',
    settingsHref: '/billing',
    testable: true,
  },
};

/** An address without user name and password (an SMTP URL carries them). */
function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'an address that does not parse';
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Every integration of the hub on one screen: each read from the feature that owns it, with its
 * real state, what it unlocks, where its settings are, and a "test now" that checks it again.
 */
export function createIntegrationsService(deps: IntegrationsDeps) {
  const now = deps.now ?? Date.now;
  const cached = new Map<IntegrationId, { at: number; check: Check }>();
  const inFlight = new Map<IntegrationId, Promise<Check>>();

  async function wyoming(
    host: string | null,
    port: number,
    kind: 'asr' | 'tts' | 'wake',
    what: string,
    notSetUp: string,
  ): Promise<Check> {
    if (!host) return { state: 'not_configured', detail: notSetUp, ok: false };
    try {
      const result = await deps.speech.probe({ host, port });
      const program = result.programs.find((p) => p.kind === kind);
      if (!program) {
        return {
          state: 'degraded',
          detail: `The Wyoming service answers but offers no ${what}`,
          adminDetail: `${host}:${port} answers in ${result.ms} ms but offers no ${what}`,
          ok: false,
        };
      }
      return {
        state: 'connected',
        detail: `${program.name} answers (${what})`,
        adminDetail: `${program.name}${program.version ? ` ${program.version}` : ''} at ${host}:${port}, answered in ${result.ms} ms`,
        ok: true,
      };
    } catch (error) {
      return {
        state: 'disconnected',
        detail: `The ${what} service does not answer`,
        adminDetail: `${host}:${port}: ${messageOf(error)}`,
        ok: false,
      };
    }
  }

  async function homeAssistant(test: boolean): Promise<Check> {
    const settings = deps.homeAssistant.settings();
    if (!settings.configured) {
      return { state: 'not_configured', detail: 'No Home Assistant is connected yet', ok: false };
    }
    let probe: HaConnectionTestResult | null = null;
    if (test) {
      probe = await deps.homeAssistant.connectionTest({}).catch(() => null);
    }
    const status = deps.homeAssistant.status();
    const where = settings.url ? ` at ${settings.url}` : '';
    const failed = probe?.steps.find((s) => s.status === 'failed');
    if (status.state === 'connected') {
      const version = status.haVersion ? ` ${status.haVersion}` : '';
      // A degraded connection (slow or missed pings, a registry that failed to load) says why.
      const why = status.health === 'degraded' && status.message ? `; ${status.message}` : '';
      const connected = `Connected to Home Assistant${version}${status.locationName ? ` (${status.locationName})` : ''}, ${status.counts.states} entities`;
      return {
        state: status.health === 'degraded' || failed ? 'degraded' : 'connected',
        detail: `${connected}${why}`,
        adminDetail: `${connected}${where}${why}${failed ? `; the test failed at ${failed.label}: ${failed.problem ?? ''}` : ''}`,
        ok: probe ? probe.ok : true,
      };
    }
    const detail = `Not connected (${status.state.replace('_', ' ')})${status.message ? `: ${status.message}` : ''}`;
    return {
      state: 'disconnected',
      detail,
      adminDetail: `${detail}${where}${failed ? `; the test failed at ${failed.label}: ${failed.problem ?? ''}` : ''}`,
      ok: probe?.ok ?? false,
    };
  }

  const checks: Record<IntegrationId, (test: boolean) => Promise<Check>> = {
    'home-assistant': homeAssistant,

    async ollama() {
      try {
        const version = await deps.ollama.version(3_000);
        return {
          state: 'connected',
          detail: `Ollama ${version} answers`,
          adminDetail: `Ollama ${version} at ${deps.ollamaUrl}`,
          ok: true,
        };
      } catch (error) {
        return {
          state: 'disconnected',
          detail: 'Ollama does not answer',
          // The client's messages already name the address; say it once.
          adminDetail: messageOf(error).includes(deps.ollamaUrl)
            ? messageOf(error)
            : `Ollama at ${deps.ollamaUrl}: ${messageOf(error)}`,
          ok: false,
        };
      }
    },

    async 'llm-providers'() {
      const cloud = deps.llmProviders().filter((p) => p.kind === 'cloud');
      if (!cloud.length) {
        return { state: 'not_configured', detail: 'No cloud provider is added', ok: false };
      }
      const results = await Promise.all(
        cloud.map(async (p) => {
          try {
            return { name: p.name, models: (await p.probe()).length, error: null };
          } catch (error) {
            return { name: p.name, models: 0, error: messageOf(error) };
          }
        }),
      );
      const up = results.filter((r) => r.error === null);
      const line = (withErrors: boolean) =>
        results
          .map((r) =>
            r.error === null
              ? `${r.name}: ${r.models} models`
              : `${r.name}: unreachable${withErrors ? ` (${r.error})` : ''}`,
          )
          .join('; ');
      return {
        state: up.length === results.length ? 'connected' : up.length ? 'degraded' : 'disconnected',
        detail: line(false),
        adminDetail: line(true),
        ok: up.length === results.length,
      };
    },

    async 'wyoming-stt'() {
      const { stt } = deps.speech.settings();
      if (stt.engine === 'openai') {
        return {
          state: 'not_configured',
          detail: 'Speech to text uses an OpenAI-compatible API instead of Wyoming',
          ok: false,
        };
      }
      return wyoming(
        stt.engine === 'wyoming' ? stt.wyomingHost : null,
        stt.wyomingPort,
        'asr',
        'speech to text',
        'No Wyoming speech-to-text service is set up',
      );
    },

    async 'wyoming-tts'() {
      const { tts } = deps.speech.settings();
      return wyoming(
        tts.engine ? tts.host : null,
        tts.port,
        'tts',
        'text to speech',
        'No Wyoming text-to-speech service is set up',
      );
    },

    async 'wyoming-wake'() {
      // The hub has no setting of its own for it: openWakeWord runs beside Whisper and Piper.
      const { stt, tts } = deps.speech.settings();
      const host = (stt.engine === 'wyoming' ? stt.wyomingHost : null) ?? (tts.engine ? tts.host : null);
      return wyoming(
        host,
        WYOMING_WAKE_PORT,
        'wake',
        'wake-word detection',
        'No Wyoming speech services are set up; satellites detect their wake words themselves',
      );
    },

    async smtp() {
      if (!deps.smtp.url) {
        return {
          state: 'not_configured',
          detail: 'No SMTP server is set (SMTP_URL and SMTP_FROM)',
          ok: false,
        };
      }
      const where = hostOf(deps.smtp.url);
      if (!deps.smtp.verify) {
        return {
          state: 'degraded',
          detail: 'An SMTP server is set, but no sender address',
          adminDetail: `SMTP at ${where}; set SMTP_FROM too, the hub sends no mail without it`,
          ok: false,
        };
      }
      try {
        await deps.smtp.verify();
        return {
          state: 'connected',
          detail: 'The SMTP server accepts the hub',
          adminDetail: `${where} accepts the connection and the sign-in`,
          ok: true,
        };
      } catch (error) {
        return {
          state: 'disconnected',
          detail: 'The SMTP server refuses or does not answer',
          adminDetail: `${where}: ${messageOf(error)}`,
          ok: false,
        };
      }
    },

    async ntfy() {
      const status = deps.ntfyStatus?.();
      if (!status?.configured) {
        return { state: 'not_configured', detail: 'No ntfy server and topic are set', ok: false };
      }
      const server = status.server ? ` (${status.server})` : '';
      if (!status.enabled) {
        return {
          state: 'disconnected',
          detail: 'The ntfy channel is turned off',
          adminDetail: `Turned off${server}`,
          ok: false,
        };
      }
      if (status.lastError) {
        return {
          state: 'degraded',
          detail: 'The last ntfy message failed',
          adminDetail: `The last message failed${server}: ${status.lastError}`,
          ok: false,
        };
      }
      return {
        state: 'connected',
        detail: 'Notifications go to ntfy',
        adminDetail: `Sending to ntfy${server}`,
        ok: true,
      };
    },

    async vpn() {
      const status = await deps.vpn.status();
      if (!status.wireguard.length) {
        return { state: 'not_configured', detail: 'No WireGuard interface on the hub', ok: false };
      }
      const peers = status.wireguard.flatMap((i) => i.peers);
      const up = peers.filter((p) => p.connected);
      const names = status.wireguard.map((i) => i.name).join(', ');
      const detail = `${up.length} of ${peers.length} peers connected`;
      return {
        state: up.length ? 'connected' : 'disconnected',
        detail,
        adminDetail: `${detail} on ${names}${status.provider === 'wireguard' && status.latency !== null ? `, ${Math.round(status.latency)} ms` : ''}`,
        ok: up.length > 0,
      };
    },

    async tailscale() {
      const status = await deps.vpn.status();
      const ts = status.tailscale;
      if (!ts || ts.backendState === 'Unavailable' || ts.backendState === 'NoState') {
        return { state: 'not_configured', detail: 'Tailscale is not installed or not running', ok: false };
      }
      if (ts.backendState !== 'Running') {
        return { state: 'disconnected', detail: `Tailscale is ${ts.backendState}`, ok: false };
      }
      const online = ts.peers.filter((p) => p.online).length;
      return {
        state: 'connected',
        detail: `Connected, ${online} of ${ts.peers.length} peers online`,
        adminDetail: `Connected as ${ts.hostName ?? 'this hub'}${ts.tailnet ? ` on ${ts.tailnet}` : ''}${ts.tailscaleIps[0] ? ` (${ts.tailscaleIps[0]})` : ''}, ${online} of ${ts.peers.length} peers online`,
        ok: true,
      };
    },

    async licence() {
      const s = deps.subscription.status();
      const ends = new Date(s.trialEndDate);
      const days = Math.ceil((ends.getTime() - now()) / 86_400_000);
      if (s.status === 'expired') {
        return { state: 'disconnected', detail: `The ${s.plan} plan has expired`, ok: false };
      }
      if (s.status === 'trialing') {
        return {
          state: days <= 7 ? 'degraded' : 'connected',
          detail: `Trial of the ${s.plan} plan, ${Math.max(0, days)} days left`,
          ok: true,
        };
      }
      return { state: 'connected', detail: `The ${s.plan} plan is active`, ok: true };
    },
  };

  function run(id: IntegrationId, test: boolean): Promise<Check> {
    const existing = inFlight.get(id);
    if (existing && !test) return existing;
    const promise = checks[id](test)
      .catch((error): Check => ({
        state: 'disconnected',
        detail: 'The check failed',
        adminDetail: `The check failed: ${messageOf(error)}`,
        ok: false,
      }))
      .then((check) => {
        cached.set(id, { at: now(), check });
        return check;
      })
      .finally(() => {
        if (inFlight.get(id) === promise) inFlight.delete(id);
      });
    inFlight.set(id, promise);
    return promise;
  }

  function view(id: IntegrationId, role: Role, check: Check, at: number): Integration {
    const admin = role === 'admin' || role === 'superadmin';
    return {
      id,
      ...STATIC[id],
      state: check.state,
      detail: admin ? (check.adminDetail ?? check.detail) : check.detail,
      checkedAt: new Date(at).toISOString(),
    };
  }

  return {
    /** Members get the same list without addresses, hosts and error texts (admin-only detail). */
    async list(role: Role): Promise<IntegrationList> {
      const integrations = await Promise.all(
        INTEGRATION_IDS.map(async (id) => {
          const fresh = READ_LIVE.has(id) ? undefined : cached.get(id);
          if (fresh && now() - fresh.at < CHECK_TTL_MS) return view(id, role, fresh.check, fresh.at);
          const check = await run(id, false);
          return view(id, role, check, cached.get(id)?.at ?? now());
        }),
      );
      return { integrations };
    },

    /** "Test now": checks again for real, whatever the cache holds. */
    async test(id: IntegrationId, role: Role): Promise<IntegrationTestResult> {
      const check = await run(id, true);
      const integration = view(id, role, check, cached.get(id)?.at ?? now());
      return {
        integration,
        ok: check.ok,
        message: check.ok
          ? `${integration.name}: ${integration.detail}`
          : `${integration.name} did not pass: ${integration.detail}`,
      };
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
