import { healthSchema } from '../contract/health.js';
import { peerStatusSchema, type PeerStatus, type RemoteHubState } from '../contract/nexus-management.js';

/**
 * Another Nexus hub, over its own API: `GET /api/health` (public) says it is a Nexus agent and
 * which version; `GET /api/nexus/peer` with one of its access tokens says how it is.
 */
export interface PeerCheck {
  state: RemoteHubState;
  message: string | null;
  version: string | null;
  remote: PeerStatus | null;
  latencyMs: number | null;
}

export interface NexusPeerClient {
  check(baseUrl: string, token: string): Promise<PeerCheck>;
}

const reasonOf = (error: unknown): string => {
  const e = error as Error & { cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'did not answer in time';
  return e.cause?.code ?? e.message;
};

export function createNexusPeerClient(opts: { timeoutMs?: number } = {}): NexusPeerClient {
  const timeoutMs = opts.timeoutMs ?? 5000;
  return {
    async check(baseUrl, token) {
      const started = performance.now();
      let version: string;
      try {
        const res = await fetch(`${baseUrl}/api/health`, {
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        const body = healthSchema.safeParse(await res.json().catch(() => null));
        if (!res.ok || !body.success) {
          return {
            state: 'error',
            message: `${baseUrl} answered, but not like a Nexus hub (HTTP ${res.status})`,
            version: null,
            remote: null,
            latencyMs: Math.round(performance.now() - started),
          };
        }
        version = body.data.version;
      } catch (error) {
        return {
          state: 'offline',
          message: `Cannot reach ${baseUrl}: ${reasonOf(error)}`,
          version: null,
          remote: null,
          latencyMs: null,
        };
      }
      const latencyMs = Math.round(performance.now() - started);
      try {
        const res = await fetch(`${baseUrl}/api/nexus/peer`, {
          headers: { Authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        if (res.status === 401 || res.status === 403) {
          await res.body?.cancel();
          return {
            state: 'unauthorized',
            message: 'The hub rejected the access token',
            version,
            remote: null,
            latencyMs,
          };
        }
        const body = peerStatusSchema.safeParse(await res.json().catch(() => null));
        if (!res.ok || !body.success) {
          return {
            state: 'error',
            message: `The hub's status answer was not understood (HTTP ${res.status}); it may run an older version (${version})`,
            version,
            remote: null,
            latencyMs,
          };
        }
        const remote = body.data;
        const degraded =
          remote.status.status !== 'online' || remote.services.some((s) => s.status === 'down');
        return {
          state: degraded ? 'degraded' : 'online',
          message: degraded
            ? [
                ...remote.status.warnings,
                ...remote.services.filter((s) => s.status === 'down').map((s) => `${s.name} is down`),
              ].join('; ') || 'The hub reports itself degraded'
            : null,
          version,
          remote,
          latencyMs,
        };
      } catch (error) {
        return {
          state: 'offline',
          message: `The hub stopped answering: ${reasonOf(error)}`,
          version,
          remote: null,
          latencyMs,
        };
      }
    },
  };
}
