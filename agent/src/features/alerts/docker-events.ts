import type { Readable } from 'node:stream';
import type { DockerAdapter } from '../../adapters/docker.js';
import type { Logger } from '../../lib/logger.js';
import type { ContainerAlerts, ContainerRun, EngineEvent } from './container-alerts.js';

export interface BackoffTiming {
  firstMs: number;
  maxMs: number;
}
export const EVENT_STREAM_BACKOFF: BackoffTiming = { firstMs: 1_000, maxMs: 60_000 };

/**
 * A container's current run as its inspect tells it (the engine reads the runtime's state there,
 * ahead of its die event); null when it cannot say (gone, the engine away): no recovery then.
 */
export function containerRunOf(engine: DockerAdapter) {
  return async (name: string): Promise<ContainerRun | null> => {
    try {
      const { State } = await engine.inspectContainer(name);
      const startedAt = Date.parse(State?.StartedAt ?? '');
      return Number.isNaN(startedAt) ? null : { running: State.Running === true, startedAt };
    } catch {
      return null;
    }
  };
}

/**
 * Follows the engine's container events for the container alerts. When the engine goes away (a
 * restart of dockerd, a Podman socket that is not there yet), it tries again after 1 s, 2 s, 4 s…
 * up to a minute, and logs the outage once rather than every attempt. After each connection it
 * reconciles the open incidents with the containers as they are (events missed while away).
 */
export function watchDockerEvents(deps: {
  engine: DockerAdapter;
  alerts: ContainerAlerts;
  log: Logger;
  backoff?: BackoffTiming;
}): () => void {
  const backoff = deps.backoff ?? EVENT_STREAM_BACKOFF;
  const stream = deps.engine.streamEvents?.bind(deps.engine);
  if (!stream) return () => {};
  let stopped = false;
  let delay = backoff.firstMs;
  let retry: NodeJS.Timeout | null = null;
  let current: { abort: AbortController; events: Readable | null } | null = null;
  let down = false;

  function schedule(reason: unknown) {
    if (stopped) return;
    if (!down) {
      down = true;
      deps.log.warn(
        { err: reason },
        'alerts: the Docker event stream is not available; retrying with back-off',
      );
    }
    retry = setTimeout(connect, delay);
    retry.unref();
    delay = Math.min(delay * 2, backoff.maxMs);
  }

  async function reconcile() {
    const containers = await deps.engine.listContainers();
    deps.alerts.reconcile(
      containers.map((c) => ({
        name: (c.Names?.[0] ?? c.Id).replace(/^\//, ''),
        running: c.State === 'running',
        // "Up 3 minutes (healthy)": the list's status is the only place it shows without an inspect.
        healthy: /\(unhealthy\)/.test(c.Status ?? '')
          ? false
          : /\(healthy\)/.test(c.Status ?? '')
            ? true
            : null,
      })),
    );
  }

  function connect() {
    retry = null;
    if (stopped) return;
    const abort = new AbortController();
    const attempt: { abort: AbortController; events: Readable | null } = { abort, events: null };
    current = attempt;
    stream!(['container'], abort.signal).then(
      (events) => {
        if (stopped || current !== attempt) {
          events.destroy();
          return;
        }
        attempt.events = events;
        deps.log.info(
          down ? 'alerts: the Docker event stream is back' : 'alerts: following the Docker event stream',
        );
        down = false;
        let healthy = false;
        events.on('data', (event: EngineEvent) => {
          if (!healthy) {
            // A connection that delivers is a good one: the next outage starts from the first delay.
            healthy = true;
            delay = backoff.firstMs;
          }
          try {
            deps.alerts.handle(event);
          } catch (err) {
            deps.log.error({ err }, 'alerts: a container event could not be handled');
          }
        });
        let ended = false;
        const end = (reason: unknown) => {
          if (ended) return;
          ended = true;
          if (current === attempt) current = null;
          schedule(reason);
        };
        events.on('end', () => end(new Error('the engine closed the event stream')));
        events.on('error', end);
        reconcile().catch((err: unknown) =>
          deps.log.warn({ err }, 'alerts: could not list containers to reconcile'),
        );
      },
      (err: unknown) => {
        if (current === attempt) current = null;
        schedule(err);
      },
    );
  }

  connect();
  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    current?.abort.abort();
    current?.events?.destroy();
    deps.alerts.stop();
  };
}
