import type {
  DiagnosticsBundle,
  MetricSample,
  MetricWindow,
  NetworkInfo,
  ProcessList,
  SystemInfo,
} from '../../contract/system.js';
import type { Env } from '../../env.js';
import { redactLogLine, redactText } from './redact.js';

/** The last this-many 1 s samples go into the bundle: ten minutes before the owner pressed the button. */
const BUNDLE_SECONDS = 600;
const BUNDLE_PROCESSES = 25;

/** What the bundle reads; the metrics feature provides it (composed in app.ts). */
export interface DiagnosticsSources {
  systemInfo(): Promise<SystemInfo>;
  network(): Promise<NetworkInfo>;
  processes(limit: number, sort: 'cpu' | 'mem'): Promise<ProcessList>;
  series(window: MetricWindow): { samples: MetricSample[] };
}

/** The configuration worth seeing when debugging, with credentials masked. */
export function safeConfig(env: Env): Record<string, unknown> {
  const url = (u: string | undefined) => (u ? redactText(u) : null);
  return {
    NODE_ENV: env.NODE_ENV,
    PORT: env.PORT,
    HOST: env.HOST,
    NEXUS_DATA_DIR: env.dataDir,
    DOCKER_HOST: url(env.DOCKER_HOST),
    OLLAMA_URL: url(env.OLLAMA_URL),
    HA_URL: url(env.HA_URL),
    HA_TOKEN: env.HA_TOKEN ? 'set' : 'unset',
    NEXUS_HOST_ROOT: env.NEXUS_HOST_ROOT,
    NEXUS_TRUST_PROXY: env.NEXUS_TRUST_PROXY,
    LOG_LEVEL: env.LOG_LEVEL,
  };
}

export function createDiagnosticsService(deps: {
  sources: DiagnosticsSources;
  logLines: () => string[];
  env: Env;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  return {
    /** Everything an engineer needs to look at a hub from afar; a part that fails is listed in `errors`. */
    async bundle(): Promise<DiagnosticsBundle> {
      const errors: string[] = [];
      const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T | null> => {
        try {
          return await fn();
        } catch (err) {
          errors.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
          return null;
        }
      };
      const [info, network, processes] = await Promise.all([
        deps.sources.systemInfo(),
        attempt('network', () => deps.sources.network()),
        attempt('processes', () => deps.sources.processes(BUNDLE_PROCESSES, 'cpu')),
      ]);
      const { agent, latest: _latest, ...host } = info;
      return {
        generatedAt: new Date(now()).toISOString(),
        agent: { ...agent, config: safeConfig(deps.env) },
        host,
        network,
        processes: processes
          ? {
              ...processes,
              processes: processes.processes.map((p) => ({ ...p, command: redactText(p.command) })),
            }
          : null,
        metrics: {
          lastMinutes: deps.sources.series('1h').samples.slice(-BUNDLE_SECONDS),
          lastDay: deps.sources.series('24h').samples,
        },
        logs: deps.logLines().map(redactLogLine),
        errors,
      };
    },
  };
}

export type DiagnosticsService = ReturnType<typeof createDiagnosticsService>;
