import { z, type ZodType } from 'zod';
import type { HostFiles } from '../../adapters/host-files.js';
import type { NetworkProbe } from '../../adapters/network-probe.js';
import { countsTowardTraffic, type SystemInfoAdapter } from '../../adapters/system-info.js';
import type { RegisterInput } from '../../contract/auth.js';
import type { DiagnosticCheck } from '../../contract/jetson.js';
import {
  OPTIONAL_SETUP_STEPS,
  SETUP_STEPS,
  isValidTimeZone,
  setupStepSchema,
  type HubIdentityInput,
  type NetworkCheck,
  type SetupInput,
  type SetupProgress,
  type SetupStatus,
  type SetupStep,
  type SetupStepInput,
} from '../../contract/setup.js';
import { badRequest, conflict } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';

/** The settings repository (features/settings), as this feature uses it. */
export interface SettingsStore {
  get<T>(key: string, schema: ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Settings keys this feature owns. */
const IDENTITY_KEY = 'hub.identity';
const PROGRESS_KEY = 'setup.progress';
/** The owner chose to create the first account on the sign-in screen instead of the wizard. */
const SKIPPED_KEY = 'setup.skipped';

const identitySchema = z.object({ hubName: z.string(), timeZone: z.string() });
const storedProgressSchema = z.object({
  completed: z.array(setupStepSchema),
  skipped: z.array(setupStepSchema),
  finishedAt: z.string().nullable(),
});
type StoredProgress = z.infer<typeof storedProgressSchema>;
export type HubIdentity = z.infer<typeof identitySchema>;

/** The wizard needs these from the outside; names and images come from the Docker registry and Ollama's. */
const REGISTRY_HOSTS = [
  { host: 'registry-1.docker.io', what: 'Docker Hub (container images)' },
  { host: 'registry.ollama.ai', what: "Ollama's model registry" },
] as const;
const PROBE_TIMEOUT_MS = 3000;

export interface SetupServiceDeps {
  settings: SettingsStore;
  /** Whether any account exists (the auth feature's answer). */
  hasAccounts: () => boolean;
  host: HostFiles;
  system: Pick<
    SystemInfoAdapter,
    'hostname' | 'readDefaultRoute' | 'readOperstate' | 'networkInterfaces' | 'dns'
  >;
  probe: NetworkProbe;
  /** The address the agent binds to (HOST). */
  listenHost: string;
  log: Logger;
  now?: () => number;
}

export function createSetupService(deps: SetupServiceDeps) {
  const now = deps.now ?? Date.now;
  const { settings } = deps;

  /** The host's zone: /etc/timezone (Debian, Ubuntu, JetPack), else where /etc/localtime points. */
  function hostTimeZone(): string {
    const named = deps.host.readText('etc/timezone')?.trim();
    if (named && isValidTimeZone(named)) return named;
    const link = deps.host.resolve('etc/localtime');
    const fromLink = link ? /zoneinfo\/(.+)$/.exec(link)?.[1] : undefined;
    if (fromLink && isValidTimeZone(fromLink)) return fromLink;
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  }

  function identity(): HubIdentity {
    return (
      settings.get(IDENTITY_KEY, identitySchema) ?? {
        hubName: deps.system.hostname(),
        timeZone: hostTimeZone(),
      }
    );
  }

  function storedProgress(): StoredProgress {
    return (
      settings.get(PROGRESS_KEY, storedProgressSchema) ?? { completed: [], skipped: [], finishedAt: null }
    );
  }

  function progress(): SetupProgress {
    const stored = storedProgress();
    // An owner who signed up on the sign-in screen has done the first steps all the same.
    const completed = new Set<SetupStep>(stored.completed);
    if (deps.hasAccounts()) {
      completed.add('welcome');
      completed.add('owner');
    }
    if (settings.get(IDENTITY_KEY, identitySchema)) completed.add('hub');
    const skipped = new Set(stored.skipped);
    const currentStep = stored.finishedAt
      ? 'done'
      : (SETUP_STEPS.find((s) => s !== 'done' && !completed.has(s) && !skipped.has(s)) ?? 'done');
    if (stored.finishedAt) completed.add('done');
    return {
      currentStep,
      completed: SETUP_STEPS.filter((s) => completed.has(s)),
      skipped: SETUP_STEPS.filter((s) => skipped.has(s)),
      finishedAt: stored.finishedAt,
      ...identity(),
    };
  }

  function needsSetup(): boolean {
    return !deps.hasAccounts() && settings.get(SKIPPED_KEY, z.literal(true)) !== true;
  }

  function saveIdentity(input: { hubName: string; timeZone?: string }): HubIdentity {
    const next = { hubName: input.hubName, timeZone: input.timeZone ?? identity().timeZone };
    settings.set(IDENTITY_KEY, next);
    return next;
  }

  return {
    identity,
    progress,

    status(): SetupStatus {
      const needed = needsSetup();
      return { needsSetup: needed, suggested: needed ? identity() : null };
    },

    /**
     * Creates the owner (through `createOwner`, which signs them in) and records the hub's
     * identity. Exactly once: the owner's creation itself refuses when any account exists, so two
     * racing requests cannot both succeed.
     */
    async complete<T>(input: SetupInput, createOwner: (owner: RegisterInput) => Promise<T>): Promise<T> {
      if (deps.hasAccounts()) throw conflict('This hub is already set up: sign in instead');
      const created = await createOwner(input.owner);
      saveIdentity({ hubName: input.hubName, timeZone: input.timeZone });
      const stored = storedProgress();
      settings.set(PROGRESS_KEY, {
        ...stored,
        completed: [...new Set<SetupStep>([...stored.completed, 'welcome', 'owner', 'hub'])],
      } satisfies StoredProgress);
      settings.delete(SKIPPED_KEY);
      deps.log.info({ hubName: input.hubName }, 'first-boot setup: owner account created');
      return created;
    },

    /** "I'll create the account on the sign-in screen": stops sending visitors to /install. */
    skip(): SetupStatus {
      if (!needsSetup()) throw conflict('Setup is not pending: there is nothing to skip');
      settings.set(SKIPPED_KEY, true);
      deps.log.info('first-boot setup: the wizard was skipped for the sign-in screen');
      return { needsSetup: false, suggested: null };
    },

    updateIdentity(input: HubIdentityInput): SetupProgress {
      saveIdentity(input);
      return progress();
    },

    recordStep(step: SetupStep, { outcome }: SetupStepInput): SetupProgress {
      if (outcome === 'skipped' && !OPTIONAL_SETUP_STEPS.includes(step)) {
        throw badRequest(`The ${step} step cannot be skipped`);
      }
      const stored = storedProgress();
      const completed = stored.completed.filter((s) => s !== step);
      const skipped = stored.skipped.filter((s) => s !== step);
      (outcome === 'done' ? completed : skipped).push(step);
      settings.set(PROGRESS_KEY, { ...stored, completed, skipped } satisfies StoredProgress);
      return progress();
    },

    finish(): SetupProgress {
      const stored = storedProgress();
      settings.set(PROGRESS_KEY, {
        ...stored,
        finishedAt: stored.finishedAt ?? new Date(now()).toISOString(),
      } satisfies StoredProgress);
      deps.log.info('first-boot setup finished');
      return progress();
    },

    async networkCheck(consolePort: string): Promise<NetworkCheck> {
      const checks: DiagnosticCheck[] = [];
      const route = deps.system.readDefaultRoute();
      const state = route ? deps.system.readOperstate(route.iface) : null;
      if (route && state !== 'down') {
        checks.push({
          id: 'lan',
          title: 'Local network',
          status: 'pass',
          detail: `Connected through ${route.iface} (gateway ${route.gateway}).`,
          fix: null,
        });
      } else {
        checks.push({
          id: 'lan',
          title: 'Local network',
          status: 'fail',
          detail: route
            ? `The route out uses ${route.iface}, which is down.`
            : 'The hub has no default route: it is not on a network.',
          fix: 'Plug in Ethernet, or join Wi-Fi on the hub: sudo nmcli device wifi connect <SSID> password <password>',
        });
      }

      const { nameservers } = deps.system.dns();
      checks.push(
        nameservers.length > 0
          ? {
              id: 'dns-servers',
              title: 'DNS servers',
              status: 'pass',
              detail: `Using ${nameservers.join(', ')}.`,
              fix: null,
            }
          : {
              id: 'dns-servers',
              title: 'DNS servers',
              status: 'fail',
              detail: '/etc/resolv.conf names no DNS server.',
              fix: 'Set one in NetworkManager: sudo nmcli connection modify <connection> ipv4.dns 1.1.1.1 && sudo nmcli connection up <connection>',
            },
      );

      const resolved = await Promise.all(
        REGISTRY_HOSTS.map(async (target) => ({
          ...target,
          result: await deps.probe.resolve(target.host, PROBE_TIMEOUT_MS),
        })),
      );
      const unresolved = resolved.filter((r) => !r.result.ok);
      checks.push(
        unresolved.length === 0
          ? {
              id: 'dns',
              title: 'Name resolution',
              status: 'pass',
              detail: `${resolved.map((r) => r.host).join(' and ')} resolve.`,
              fix: null,
            }
          : {
              id: 'dns',
              title: 'Name resolution',
              status: 'warn',
              detail: `${unresolved.map((r) => `${r.host} (${r.result.ok ? '' : r.result.reason})`).join(', ')} cannot be resolved: images and models cannot be downloaded. The console itself works without it.`,
              fix: 'Check the router’s internet connection and the DNS servers above.',
            },
      );

      const reachable = await Promise.all(
        resolved
          .filter((r) => r.result.ok)
          .map(async (target) => ({
            ...target,
            conn: await deps.probe.connect(target.host, 443, PROBE_TIMEOUT_MS),
          })),
      );
      const blocked = reachable.filter((r) => !r.conn.ok);
      if (reachable.length === 0) {
        checks.push({
          id: 'internet',
          title: 'Internet access',
          status: 'warn',
          detail: 'Not tried: the registries’ names do not resolve.',
          fix: 'Fix name resolution first; you can deploy services later from the Nexus deploy screen.',
        });
      } else {
        checks.push(
          blocked.length === 0
            ? {
                id: 'internet',
                title: 'Internet access',
                status: 'pass',
                detail:
                  reachable.map((r) => `${r.what} answers (${r.conn.ok ? r.conn.ms : 0} ms)`).join('; ') +
                  '.',
                fix: null,
              }
            : {
                id: 'internet',
                title: 'Internet access',
                status: 'warn',
                detail: `${blocked.map((r) => `${r.what} at ${r.host}:443 (${r.conn.ok ? '' : r.conn.reason})`).join(', ')} cannot be reached.`,
                fix: 'Allow outgoing HTTPS (port 443) from the hub in the router or firewall.',
              },
        );
      }

      const interfaces = await deps.system.networkInterfaces().catch(() => []);
      const consoleUrls = interfaces
        .filter((i) => !i.internal && i.ip4 && countsTowardTraffic(i.name) && i.operstate !== 'down')
        .map((i) => ({ iface: i.name, url: `http://${i.ip4}${consolePort ? `:${consolePort}` : ''}` }));
      const loopbackOnly = /^(127\.|localhost$|::1$)/.test(deps.listenHost);
      checks.push(
        loopbackOnly
          ? {
              id: 'console-reachable',
              title: 'Console on the network',
              status: 'warn',
              detail: `The agent listens on ${deps.listenHost} only: other devices cannot open the console.`,
              fix: 'Set HOST=0.0.0.0 in the agent’s environment (/etc/nexus/nexus.env) and restart it.',
            }
          : {
              id: 'console-reachable',
              title: 'Console on the network',
              status: consoleUrls.length > 0 ? 'pass' : 'warn',
              detail:
                consoleUrls.length > 0
                  ? `Other devices can open ${consoleUrls.map((u) => u.url).join(' or ')}.`
                  : 'No network address with IPv4 was found for other devices to use.',
              fix: consoleUrls.length > 0 ? null : 'Connect the hub to the home network (Ethernet or Wi-Fi).',
            },
      );
      return { checks, consoleUrls };
    },
  };
}

export type SetupService = ReturnType<typeof createSetupService>;
