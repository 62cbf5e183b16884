import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import type { DeliberateStops } from './deliberate-stops.js';
import type { IncidentNotifier } from './incidents.js';

/** One message of the Engine API's event stream (GET /events), the fields used here. */
export interface EngineEvent {
  Type?: string;
  Action?: string;
  /** Older engines' name for Action. */
  status?: string;
  id?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  timeNano?: number;
}

/** The engine's account of a container's current run: whether it runs, and since when (ms). */
export interface ContainerRun {
  running: boolean;
  startedAt: number;
}

export interface ContainerAlertTiming {
  /** This many dies within loopWindowMs is a restart loop. */
  loopCount: number;
  loopWindowMs: number;
  /** A container counts as recovered once it has run (and stayed healthy) this long. */
  stableMs: number;
}

export const CONTAINER_ALERT_TIMING: ContainerAlertTiming = {
  loopCount: 3,
  loopWindowMs: 5 * 60_000,
  stableMs: 30_000,
};

const LINK = '/nexus-docker';
const KINDS = ['died', 'unhealthy', 'restart-loop'] as const;
type Kind = (typeof KINDS)[number];

/** The incident key of one container's fault; the name survives a re-create, the id does not. */
export const containerIncidentKey = (name: string, kind: Kind) => `container:${name}:${kind}`;

/** `health_status: unhealthy` (Docker) or `health_status` with the status as an attribute (Podman). */
function healthOf(action: string, attrs: Record<string, string>): string | null {
  if (!action.startsWith('health_status')) return null;
  const fromAction = action.split(':')[1]?.trim();
  return fromAction || attrs.health_status || null;
}

/**
 * Turns the engine's container events into incidents: a container that dies with a non-zero exit
 * code or is killed (not stopped through the console), that turns unhealthy, or that dies
 * loopCount times within loopWindowMs. Each clears only after the container has run (or been
 * healthy) for stableMs, so a container that crashes and restarts over and over does not say
 * "recovered" between crashes: the fault stays one incident however long it flaps.
 */
export function createContainerAlerts(deps: {
  incidents: IncidentNotifier;
  deliberate?: DeliberateStops;
  timing?: Partial<ContainerAlertTiming>;
  now?: () => number;
  /** Asks the engine about a container's current run (null: unknown) before a recovery is announced. */
  engine?: { currentRun: (name: string) => Promise<ContainerRun | null>; log: Pick<Logger, 'error'> };
}) {
  const timing = { ...CONTAINER_ALERT_TIMING, ...deps.timing };
  const now = deps.now ?? Date.now;
  const dies = new Map<string, number[]>();
  /** Pending "it has recovered" checks per incident key (a timer, then an ask of the engine). */
  const pending = new Map<string, { timer: NodeJS.Timeout }>();

  function cancel(key: string) {
    const check = pending.get(key);
    if (check) clearTimeout(check.timer);
    pending.delete(key);
  }

  /**
   * Announces the recovery once the run that began by `since` (the start event's time on the
   * engine's clock, or now) has lasted stableMs. The time between our start and die events is not
   * that run: Podman reports a die only once its cleanup process has run (seconds later on a loaded
   * host), and an agent whose event loop stalled fires its timer before it reads the die waiting on
   * the socket. Either way a container that crashes after 0.2 s looked healthy, and a restart loop
   * said "recovered" then "stopped" again and again. So when the timer fires, the engine is asked
   * (its inspect reads the runtime's state): a container not running now stays open (the next start
   * times again); one that has started since `since` has died in between, and its run is timed anew.
   */
  function clearLater(name: string, kind: Kind, body: string, since = now()) {
    const key = containerIncidentKey(name, kind);
    if (pending.has(key) || !deps.incidents.isOpen(key)) return;
    const recovered = () => {
      deps.incidents.clear(key, {
        category: 'containers',
        title: `Container ${name} recovered`,
        body,
        link: LINK,
      });
      if (kind === 'died') dies.delete(name);
    };
    const check = {
      timer: setTimeout(() => {
        const engine = deps.engine;
        if (!engine) {
          pending.delete(key);
          recovered();
          return;
        }
        // Stays pending while the engine answers: a die meanwhile cancels it, a start does not re-arm.
        inBackground(engine.log, 'alerts: checking a container before its recovery', async () => {
          const run = await engine.currentRun(name);
          if (pending.get(key) !== check) return;
          pending.delete(key);
          if (!run?.running) return;
          if (run.startedAt > since) clearLater(name, kind, body, run.startedAt);
          else recovered();
        });
      }, timing.stableMs),
    };
    check.timer.unref();
    pending.set(key, check);
  }

  /** When the engine says the event happened (ms); a seconds-only time is rounded up. */
  const eventTime = (event: EngineEvent): number | undefined =>
    event.timeNano !== undefined
      ? event.timeNano / 1e6
      : event.time !== undefined
        ? (event.time + 1) * 1000
        : undefined;

  function open(name: string, kind: Kind, level: 'warning' | 'error', title: string, body: string) {
    const key = containerIncidentKey(name, kind);
    cancel(key);
    deps.incidents.open(key, { category: 'containers', level, title, body, link: LINK });
  }

  function forgetAll(name: string) {
    dies.delete(name);
    for (const kind of KINDS) {
      const key = containerIncidentKey(name, kind);
      cancel(key);
      deps.incidents.forget(key);
    }
  }

  function died(id: string, name: string, attrs: Record<string, string>) {
    if (deps.deliberate?.consume(id, name)) {
      // The owner stopped it: whatever was wrong with it is theirs to handle now.
      forgetAll(name);
      return;
    }
    const t = now();
    const recent = (dies.get(name) ?? []).filter((at) => t - at < timing.loopWindowMs);
    recent.push(t);
    dies.set(name, recent.slice(-timing.loopCount));
    const exitCode = attrs.exitCode ?? attrs.exitcode;
    if (exitCode !== undefined && exitCode !== '0') {
      const code = Number(exitCode);
      const killed = code === 137 || code === 143;
      open(
        name,
        'died',
        'error',
        `Container ${name} ${killed ? 'was killed' : 'stopped unexpectedly'}`,
        `It exited with code ${exitCode}${killed ? ` (signal ${code - 128})` : ''}.`,
      );
    } else {
      // It ended on its own with code 0: not a crash, but a recovery must wait for it to run again.
      cancel(containerIncidentKey(name, 'died'));
    }
    cancel(containerIncidentKey(name, 'restart-loop'));
    if (recent.length >= timing.loopCount) {
      open(
        name,
        'restart-loop',
        'error',
        `Container ${name} keeps restarting`,
        `It stopped ${recent.length} times within ${Math.round(timing.loopWindowMs / 60_000)} minutes.`,
      );
    }
  }

  return {
    handle(event: EngineEvent): void {
      if ((event.Type ?? 'container') !== 'container') return;
      const action = event.Action ?? event.status ?? '';
      const attrs = event.Actor?.Attributes ?? {};
      const id = event.Actor?.ID ?? event.id ?? '';
      const name = attrs.name;
      if (!name) return;
      const health = healthOf(action, attrs);
      if (health === 'unhealthy') {
        open(name, 'unhealthy', 'warning', `Container ${name} is unhealthy`, 'Its health check fails.');
        return;
      }
      if (health === 'healthy') {
        clearLater(name, 'unhealthy', 'Its health check passes again.');
        return;
      }
      switch (action) {
        case 'die':
        case 'died':
          died(id, name, attrs);
          return;
        // Not 'restart': Docker sends it after the start, Podman before the run begins.
        case 'start': {
          const since = eventTime(event);
          clearLater(name, 'died', 'It is running again.', since);
          clearLater(name, 'restart-loop', 'It has been running without stopping again.', since);
          return;
        }
        case 'destroy':
        case 'remove':
          forgetAll(name);
          return;
      }
    },

    /**
     * After (re)connecting to the engine: events missed while away are lost, so open incidents of
     * containers that run now may clear (after stableMs) and those of containers gone are closed.
     */
    reconcile(containers: { name: string; running: boolean; healthy: boolean | null }[]): void {
      const byName = new Map(containers.map((c) => [c.name, c]));
      for (const key of deps.incidents.openKeys('container:')) {
        const [, name = '', kind = ''] = /^container:(.*):([a-z-]+)$/.exec(key) ?? [];
        const c = byName.get(name);
        if (!c) {
          deps.incidents.forget(key);
          continue;
        }
        if (!c.running) continue;
        if (kind === 'unhealthy' && c.healthy === true)
          clearLater(name, 'unhealthy', 'Its health check passes again.');
        if ((kind === 'died' || kind === 'restart-loop') && c.healthy !== false)
          clearLater(name, kind, 'It is running again.');
      }
    },

    stop(): void {
      for (const check of pending.values()) clearTimeout(check.timer);
      pending.clear();
    },
  };
}

export type ContainerAlerts = ReturnType<typeof createContainerAlerts>;
