import type { EngineContainerInspect } from '../../adapters/docker.js';
import type { ContainerSummary } from '../../contract/docker.js';
import { redactText } from '../diagnostics/index.js';

/**
 * What members (role user) see of a container. Containers are configured through their environment
 * and labels, and that is where database passwords, API tokens and connection strings live; members
 * may look at what runs on the hub, not at its credentials. Admins see the engine's answer as is.
 *
 * Every environment value is hidden, not only those whose names look secret: names such as
 * `DATABASE`, `UPSTREAM` or `CONFIG` carry connection strings with passwords just as often, and the
 * names alone say what a container is configured with. Labels are mostly compose's and tools'
 * metadata that members may need (project, service, version), so only labels whose key or value
 * looks like a credential are hidden.
 */
export const HIDDEN = '••••';

/** Names of settings that hold credentials: PASSWORD, DB_PASS, API_KEY, AUTH_TOKEN, SENTRY_DSN… */
const SECRET_NAME =
  /pass(word|wd|phrase)?|secret|token|(^|[^a-z])key([^a-z]|$)|api[-_.]?key|private|credential|auth(?!or)|dsn|cookie|session|salt|cert/i;

/** A value that is a credential whatever its name: user:password@ in a URL, a bearer, a JWT, sk-…. */
const looksSecretValue = (value: string) =>
  /\/\/[^/\s:@]+:[^/\s@]*@/.test(value) || redactText(value) !== value;

const hideEnv = (entry: string) => {
  const eq = entry.indexOf('=');
  return eq < 0 ? entry : `${entry.slice(0, eq)}=${HIDDEN}`;
};

export function hideSecretLabels(labels: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels ?? {})) {
    out[key] = SECRET_NAME.test(key) || looksSecretValue(String(value)) ? HIDDEN : value;
  }
  return out;
}

/** Command lines may carry `--password=…` or a URL with credentials: those parts are hidden. */
const hideArgs = (args: unknown) =>
  Array.isArray(args) ? args.map((a) => (typeof a === 'string' ? redactText(a) : a)) : args;

export function memberContainerInspect(info: EngineContainerInspect): EngineContainerInspect {
  // The engine always sends Config; a missing one is passed on as it came.
  const config = info.Config as EngineContainerInspect['Config'] | undefined;
  if (!config) return info;
  return {
    ...info,
    Path: typeof info.Path === 'string' ? redactText(info.Path) : info.Path,
    Args: hideArgs(info.Args) as string[],
    Config: {
      ...config,
      Env: (config.Env ?? []).map(hideEnv),
      Labels: hideSecretLabels(config.Labels),
      Cmd: hideArgs(config.Cmd) as string[],
      Entrypoint: hideArgs(config.Entrypoint) as string[],
    },
  };
}

export function memberContainerSummary(summary: ContainerSummary): ContainerSummary {
  return { ...summary, command: redactText(summary.command), labels: hideSecretLabels(summary.labels) };
}
