import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DockerAdapter } from '../../adapters/docker.js';
import type { NexusPeerClient, PeerCheck } from '../../adapters/nexus-peer.js';
import type { OllamaClient } from '../../adapters/ollama.js';
import { summarizeChecks, type DiagnosticCheck } from '../../contract/jetson.js';
import {
  REMOTE_HUB_POLL_MS,
  peerStatusSchema,
  remoteHubStateSchema,
  type AccessToken,
  type CreatedAccessToken,
  type HubDebug,
  type HubOverview,
  type HubService,
  type PeerStatus,
  type RemoteHub,
  type RemoteHubChanges,
  type RemoteHubFields,
  type SelfTest,
} from '../../contract/nexus-management.js';
import type { HaHealth, NexusStatus } from '../../contract/status.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import { inBackground } from '../../lib/background.js';
import { sameOrigin } from '../../lib/origin.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { NexusManagementRepository } from './nexus-management.repository.js';
import type { HubAccessTokenRow, RemoteHubRow } from './nexus-management.table.js';

/** One probe gives up after this; the overview must not hang on a stuck engine. */
const PROBE_TIMEOUT_MS = 3000;
/** Several browsers polling the overview share one round of probes. */
const SERVICES_CACHE_MS = 5000;
/** lastUsedAt of an access token is written at most this often. */
const TOKEN_TOUCH_INTERVAL_MS = 60_000;
const TOKEN_PREFIX = 'nxh_';
/** The catalog's stacks are named nexus-<app> (docker/catalog.json). */
const HUB_STACK_PREFIX = 'nexus-';
/** compose.yaml's project: the agent and the services of its profiles, one entry per compose service. */
const APPLIANCE_PROJECT = 'nexus';
const COMPOSE_PROJECT_LABEL = 'com.docker.compose.project';
const COMPOSE_SERVICE_LABEL = 'com.docker.compose.service';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return `${Math.max(m, 0)} min`;
}

const storedCheckSchema = z.object({
  state: remoteHubStateSchema,
  message: z.string().nullable(),
  version: z.string().nullable(),
  remote: peerStatusSchema.nullable(),
  latencyMs: z.number().nullable(),
});

export interface BoardSummary {
  isJetson: boolean;
  model: string | null;
  jetpack: string | null;
  l4t: string | null;
}

export interface NexusManagementDeps {
  repo: NexusManagementRepository;
  secrets: SecretBox;
  peers: NexusPeerClient;
  log: Logger;
  version: string;
  /** When this agent process started. */
  startedAt: Date;
  hostname: () => string;
  hostUptime: () => number;
  identity: () => { hubName: string; timeZone: string };
  setupState: () => { finished: boolean; currentStep: string };
  board: () => BoardSummary;
  nexusStatus: () => Promise<NexusStatus>;
  docker: Pick<DockerAdapter, 'ping' | 'version' | 'listContainers'>;
  ollama: Pick<OllamaClient, 'tags' | 'baseUrl'>;
  haHealth?: () => Promise<HaHealth>;
  /** The database file's sizes; throws when the database does not answer. */
  database: () => { file: string; sizeBytes: number; walBytes: number };
  /** The self-test's other groups, supplied by the setup wizard's network check and the Jetson check. */
  networkChecks: (consolePort: string) => Promise<DiagnosticCheck[]>;
  hardwareChecks: () => DiagnosticCheck[];
  debugFacts: () => Pick<HubDebug, 'config'> & { dataDir: string; hostRoot: string };
  now?: () => number;
}

export function createNexusManagementService(deps: NexusManagementDeps) {
  const now = deps.now ?? Date.now;
  const { repo } = deps;
  let servicesCache: { at: number; services: Promise<HubService[]> } | null = null;
  const inFlight = new Map<number, Promise<PeerCheck>>();

  async function timed<T>(
    what: string,
    run: () => Promise<T>,
  ): Promise<{ value: T; ms: number } | { error: string; ms: number }> {
    const started = performance.now();
    try {
      const value = await withTimeout(run(), PROBE_TIMEOUT_MS, what);
      return { value, ms: Math.round(performance.now() - started) };
    } catch (error) {
      return { error: (error as Error).message, ms: Math.round(performance.now() - started) };
    }
  }

  async function probeServices(): Promise<HubService[]> {
    const agentUptime = Math.round((now() - deps.startedAt.getTime()) / 1000);
    const services: HubService[] = [
      {
        id: 'agent',
        name: 'Nexus agent',
        status: 'healthy',
        detail: `Version ${deps.version}, running for ${formatDuration(agentUptime)}.`,
        latencyMs: null,
        link: '/nexus-debug',
      },
    ];

    const started = performance.now();
    try {
      const db = deps.database();
      services.push({
        id: 'database',
        name: 'Database',
        status: 'healthy',
        detail: `${db.file}, ${(db.sizeBytes / 1024 / 1024).toFixed(1)} MB.`,
        latencyMs: Math.round(performance.now() - started),
        link: null,
      });
    } catch (error) {
      services.push({
        id: 'database',
        name: 'Database',
        status: 'down',
        detail: (error as Error).message,
        latencyMs: null,
        link: null,
      });
    }

    const [engine, ollama, ha] = await Promise.all([
      timed('The Docker engine', async () => {
        await deps.docker.ping();
        return deps.docker.version();
      }),
      timed('Ollama', () => deps.ollama.tags()),
      deps.haHealth ? timed('Home Assistant', deps.haHealth) : Promise.resolve(null),
    ]);

    services.push(
      'value' in engine
        ? {
            id: 'docker',
            name: 'Container engine',
            status: 'healthy',
            detail: `${engine.value.platform} ${engine.value.version}.`,
            latencyMs: engine.ms,
            link: '/nexus-docker',
          }
        : {
            id: 'docker',
            name: 'Container engine',
            status: 'down',
            detail: engine.error,
            latencyMs: engine.ms,
            link: '/nexus-docker',
          },
    );
    services.push(
      'value' in ollama
        ? {
            id: 'ollama',
            name: 'Ollama',
            status: 'healthy',
            detail: `${ollama.value.length} model${ollama.value.length === 1 ? '' : 's'} installed at ${deps.ollama.baseUrl}.`,
            latencyMs: ollama.ms,
            link: '/ollama',
          }
        : {
            id: 'ollama',
            name: 'Ollama',
            status: 'down',
            detail: ollama.error,
            latencyMs: ollama.ms,
            link: '/ollama',
          },
    );
    services.push(homeAssistantService(ha));

    if ('value' in engine) {
      const containers = await timed('The Docker engine', () =>
        deps.docker.listContainers({ label: [COMPOSE_PROJECT_LABEL] }),
      );
      if ('value' in containers) {
        const stacks = new Map<string, { running: number; total: number }>();
        for (const c of containers.value) {
          const project = c.Labels?.[COMPOSE_PROJECT_LABEL];
          const service = c.Labels?.[COMPOSE_SERVICE_LABEL];
          const key =
            project === APPLIANCE_PROJECT && service
              ? `${project}/${service}`
              : project?.startsWith(HUB_STACK_PREFIX)
                ? project
                : null;
          if (!key) continue;
          const entry = stacks.get(key) ?? { running: 0, total: 0 };
          entry.total += 1;
          if (c.State === 'running') entry.running += 1;
          stacks.set(key, entry);
        }
        for (const [project, { running, total }] of [...stacks].sort(([a], [b]) => a.localeCompare(b))) {
          services.push({
            id: `stack:${project}`,
            name: project,
            status: running === total ? 'healthy' : running > 0 ? 'degraded' : 'down',
            detail: `${running} of ${total} container${total === 1 ? '' : 's'} running.`,
            latencyMs: null,
            link: '/nexus-docker',
          });
        }
      }
    }
    return services;
  }

  function homeAssistantService(result: Awaited<ReturnType<typeof timed<HaHealth>>> | null): HubService {
    const base = { id: 'home-assistant', name: 'Home Assistant', link: '/ha-connection-setup' };
    if (!result) return { ...base, status: 'not_configured', detail: 'Not connected yet.', latencyMs: null };
    if (!('value' in result)) return { ...base, status: 'down', detail: result.error, latencyMs: result.ms };
    const h = result.value;
    if (h.status === 'not_configured')
      return { ...base, status: 'not_configured', detail: 'Not connected yet.', latencyMs: null };
    const counts = `${h.entitiesCount} entities, ${h.devicesCount} devices`;
    if (h.status === 'online')
      return { ...base, status: 'healthy', detail: `Connected: ${counts}.`, latencyMs: h.responseTime };
    if (h.status === 'degraded')
      return {
        ...base,
        status: 'degraded',
        detail: `Slow or partly connected: ${counts}.`,
        latencyMs: h.responseTime,
      };
    return {
      ...base,
      status: 'down',
      detail: 'Home Assistant cannot be reached.',
      latencyMs: h.responseTime,
    };
  }

  function services(fresh = false): Promise<HubService[]> {
    if (fresh || !servicesCache || now() - servicesCache.at > SERVICES_CACHE_MS) {
      servicesCache = { at: now(), services: probeServices() };
    }
    return servicesCache.services;
  }

  const FIX_BY_SERVICE: Record<string, string> = {
    database: 'Check that the data directory is writable and not full (Jetson check, disk).',
    docker:
      'Start the engine (sudo systemctl start docker) and check that the agent can reach it: DOCKER_HOST, or the mounted /var/run/docker.sock.',
    ollama: 'Deploy Ollama from the Nexus deploy screen, or point OLLAMA_URL at a running Ollama.',
    'home-assistant':
      'Connect Home Assistant at /ha-connection-setup (its URL and a long-lived access token).',
  };

  function serviceToCheck(s: HubService): DiagnosticCheck {
    const status = s.status === 'healthy' ? 'pass' : s.status === 'down' ? 'fail' : 'warn';
    const timing = s.latencyMs !== null ? ` (${s.latencyMs} ms)` : '';
    return {
      id: `service-${s.id}`,
      title: s.name,
      status,
      detail: `${s.detail}${timing}`,
      fix:
        status === 'pass'
          ? null
          : (FIX_BY_SERVICE[s.id] ?? 'Restart it from /nexus-docker; its logs there say why it stopped.'),
    };
  }

  // ---- remote hubs

  function toRemoteHub(row: RemoteHubRow, check: PeerCheck | null): RemoteHub {
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      state: check?.state ?? 'unknown',
      message: check ? check.message : 'Not checked yet',
      version: check?.version ?? null,
      remote: check?.remote ?? null,
      latencyMs: check?.latencyMs ?? null,
      lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
      checkedAt: row.lastCheckedAt?.toISOString() ?? null,
    };
  }

  function storedCheck(row: RemoteHubRow): PeerCheck | null {
    if (!row.lastResult) return null;
    try {
      const parsed = storedCheckSchema.safeParse(JSON.parse(row.lastResult));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Asks the hub now; concurrent callers share one request. */
  function checkHub(row: RemoteHubRow): Promise<PeerCheck> {
    const running = inFlight.get(row.id);
    if (running) return running;
    const promise = (async () => {
      let token: string;
      try {
        token = deps.secrets.open(row.tokenSealed);
      } catch {
        return {
          state: 'error',
          message: 'The stored token cannot be decrypted: enter it again',
          version: null,
          remote: null,
          latencyMs: null,
        } satisfies PeerCheck;
      }
      const result = await deps.peers.check(row.url, token);
      repo.recordCheck(row.id, JSON.stringify(result), result.state !== 'offline');
      return result;
    })().finally(() => inFlight.delete(row.id));
    inFlight.set(row.id, promise);
    return promise;
  }

  function requireHub(id: number): RemoteHubRow {
    const row = repo.findHub(id);
    if (!row) throw notFound('No such hub');
    return row;
  }

  /** Refuses hubs that answer but cannot be watched: a wrong token or something that is not a hub. */
  function refuseUnusable(url: string, check: PeerCheck) {
    if (check.state === 'unauthorized') throw badRequest(`The hub at ${url} rejected the access token`);
    if (check.state === 'error' && check.version === null)
      throw badRequest(check.message ?? `${url} is not a Nexus hub`);
  }

  const toAccessToken = (row: HubAccessTokenRow): AccessToken => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  });

  return {
    services,

    async overview(): Promise<HubOverview> {
      const identity = deps.identity();
      const board = deps.board();
      return {
        identity: {
          ...identity,
          hostname: deps.hostname(),
          version: deps.version,
          nodeVersion: process.version,
          platform: process.platform,
          arch: process.arch,
          agentStartedAt: deps.startedAt.toISOString(),
          hostUptime: Math.round(deps.hostUptime()),
        },
        board,
        setup: deps.setupState(),
        services: await services(),
        checkedAt: new Date(servicesCache?.at ?? now()).toISOString(),
      };
    },

    async selfTest(consolePort: string): Promise<SelfTest> {
      const startedAt = new Date(now());
      const started = performance.now();
      const group = async (
        id: string,
        title: string,
        run: () => Promise<DiagnosticCheck[]> | DiagnosticCheck[],
      ) => {
        const t = performance.now();
        const checks = await run();
        return { id, title, checks, durationMs: Math.round(performance.now() - t) };
      };
      const groups = await Promise.all([
        group('services', 'Services', async () => (await services(true)).map(serviceToCheck)),
        group('network', 'Network', () => deps.networkChecks(consolePort)),
        group('hardware', 'Hardware', () => deps.hardwareChecks()),
      ]);
      return {
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - started),
        groups,
        summary: summarizeChecks(groups.flatMap((g) => g.checks)),
      };
    },

    debug(): HubDebug {
      const facts = deps.debugFacts();
      const memory = process.memoryUsage();
      const db = deps.database();
      return {
        agent: {
          pid: process.pid,
          version: deps.version,
          nodeVersion: process.version,
          startedAt: deps.startedAt.toISOString(),
          rssBytes: memory.rss,
          heapUsedBytes: memory.heapUsed,
          dataDir: facts.dataDir,
          hostRoot: facts.hostRoot,
        },
        config: facts.config,
        database: db,
      };
    },

    async peerStatus(): Promise<PeerStatus> {
      const identity = deps.identity();
      const [status, list] = await Promise.all([deps.nexusStatus(), services()]);
      return {
        ...identity,
        hostname: deps.hostname(),
        version: deps.version,
        status,
        services: list.map(({ id, name, status: s }) => ({ id, name, status: s })),
        jetsonModel: deps.board().model,
      };
    },

    /** This hub's own figures as a peer would read them, without the service probes (the fleet's own node). */
    async selfReading(): Promise<{ remote: PeerStatus; checkedAt: string }> {
      const identity = deps.identity();
      const status = await deps.nexusStatus();
      return {
        remote: {
          ...identity,
          hostname: deps.hostname(),
          version: deps.version,
          status,
          services: [],
          jetsonModel: deps.board().model,
        },
        checkedAt: new Date(now()).toISOString(),
      };
    },

    /**
     * What every paired hub last said, from the store (no network: the fleet's node list must not
     * wait for a slow hub); readings older than the poll interval are asked again in the background.
     */
    peerReadings(): { url: string; remote: PeerStatus | null; checkedAt: string | null }[] {
      return repo.listHubs().map((row) => {
        const stale = !row.lastCheckedAt || now() - row.lastCheckedAt.getTime() >= REMOTE_HUB_POLL_MS;
        if (stale) inBackground(deps.log, `checking hub ${row.id}`, () => checkHub(row));
        return {
          url: row.url,
          remote: storedCheck(row)?.remote ?? null,
          checkedAt: row.lastCheckedAt?.toISOString() ?? null,
        };
      });
    },

    // ---- access tokens this hub issues

    listTokens(): AccessToken[] {
      return repo.listTokens().map(toAccessToken);
    },

    createToken(name: string, createdBy: number | null): CreatedAccessToken {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = repo.addToken({ name, tokenHash: hashToken(token), prefix: token.slice(0, 12), createdBy });
      deps.log.info({ tokenId: row.id, name }, 'hub access token created');
      return { ...toAccessToken(row), token };
    },

    revokeToken(id: number): void {
      if (!repo.deleteToken(id)) throw notFound('No such access token');
      deps.log.info({ tokenId: id }, 'hub access token revoked');
    },

    /** The token's row when the bearer token is one this hub issued. */
    verifyToken(token: string): AccessToken | null {
      if (!token.startsWith(TOKEN_PREFIX)) return null;
      const row = repo.findTokenByHash(hashToken(token));
      if (!row) return null;
      if (!row.lastUsedAt || now() - row.lastUsedAt.getTime() > TOKEN_TOUCH_INTERVAL_MS)
        repo.touchToken(row.id);
      return toAccessToken(row);
    },

    // ---- other hubs

    /** Every hub, asking again those whose last answer is older than the poll interval. */
    async listHubs(): Promise<RemoteHub[]> {
      const rows = repo.listHubs();
      return Promise.all(
        rows.map(async (row) => {
          const stale =
            !row.lastCheckedAt || now() - row.lastCheckedAt.getTime() >= REMOTE_HUB_POLL_MS - 1000;
          if (!stale) return toRemoteHub(row, storedCheck(row));
          const check = await checkHub(row);
          return toRemoteHub(repo.findHub(row.id) ?? row, check);
        }),
      );
    },

    async addHub(input: RemoteHubFields): Promise<RemoteHub> {
      const check = await deps.peers.check(input.url, input.token);
      refuseUnusable(input.url, check);
      const row = repo.addHub({
        name: input.name,
        url: input.url,
        tokenSealed: deps.secrets.seal(input.token),
      });
      repo.recordCheck(row.id, JSON.stringify(check), check.state !== 'offline');
      deps.log.info({ hubId: row.id, url: input.url, state: check.state }, 'remote hub added');
      return toRemoteHub(requireHub(row.id), check);
    },

    async updateHub(id: number, input: RemoteHubChanges): Promise<RemoteHub> {
      const row = requireHub(id);
      const url = input.url ?? row.url;
      if (input.url && !input.token && !sameOrigin(row.url, input.url)) {
        throw badRequest(
          'Enter the access token again for the new address: a saved token is only sent to the address it was saved for',
        );
      }
      if (input.url || input.token) {
        const token = input.token ?? deps.secrets.open(row.tokenSealed);
        refuseUnusable(url, await deps.peers.check(url, token));
      }
      repo.updateHub(id, {
        ...(input.name ? { name: input.name } : {}),
        ...(input.url ? { url: input.url } : {}),
        ...(input.token ? { tokenSealed: deps.secrets.seal(input.token) } : {}),
      });
      const updated = requireHub(id);
      return toRemoteHub(updated, await checkHub(updated));
    },

    async refreshHub(id: number): Promise<RemoteHub> {
      const row = requireHub(id);
      const check = await checkHub(row);
      return toRemoteHub(requireHub(id), check);
    },

    removeHub(id: number): void {
      if (!repo.deleteHub(id)) throw notFound('No such hub');
    },
  };
}

export type NexusManagementService = ReturnType<typeof createNexusManagementService>;
