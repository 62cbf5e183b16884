import type { MetricSample } from '../../contract/system.js';
import type { Satellite } from '../../contract/satellites.js';
import type { VpnStatus } from '../../contract/status.js';
import type { DockerAdapter } from '../../adapters/docker.js';
import type { MemoryPressure, ThermalTrip } from '../../adapters/system-info.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { SessionService } from '../auth/index.js';
import type { Notify } from '../notifications/index.js';
import { watchBackups, type BackupRunSource } from './backup-alerts.js';
import { createContainerAlerts } from './container-alerts.js';
import { createDeliberateStops } from './deliberate-stops.js';
import { containerRunOf, watchDockerEvents } from './docker-events.js';
import { createFlowAlerts, type EndedFlowRun } from './flow-alerts.js';
import { watchHomeAssistant } from './home-assistant-alerts.js';
import { createHostCheck } from './host-alerts.js';
import { createIncidentNotifier } from './incidents.js';
import { createOllamaCheck } from './ollama-alerts.js';
import { every } from './poll.js';
import { createSatelliteCheck } from './satellite-alerts.js';
import { watchSignIns } from './sign-in-alerts.js';
import { createSubscriptionCheck, type SubscriptionPeriod } from './subscription-alerts.js';
import { createVpnCheck } from './vpn-alerts.js';
import type { UplinkSummary } from '../vpn/index.js';

export type { BackupRunSource } from './backup-alerts.js';
export type { EndedFlowRun } from './flow-alerts.js';

type Settings = Parameters<typeof watchSignIns>[0]['settings'];

export interface AlertTimings {
  /** How long Home Assistant may be away before it is reported (NEXUS_ALERT_HA_GRACE_MS). */
  haGraceMs: number;
  /** How long a container must run before its fault counts as cleared (NEXUS_ALERT_CONTAINER_STABLE_MS). */
  containerStableMs: number;
  /** How often polled sources (host, satellites, Ollama, VPN, licence) are checked (NEXUS_ALERT_POLL_MS). */
  pollMs: number;
}

/** Ollama, the VPN and the licence are probed less often than local readings: each costs a process or a request. */
const SLOW_POLL_FACTOR = 2;

/**
 * Events that notify (issue 19). Made early in app.ts, because three hooks must be in place before
 * the features that feed them are built (the sessions sign-ins go through, the engine the docker
 * feature stops containers with, and the end of flow runs); `start()` then follows every source.
 * Each source's failure is logged and never fatal.
 */
export function createAlerts(deps: {
  db: Db;
  log: Logger;
  notify: Notify;
  settings: Settings;
  now?: () => number;
}) {
  const log = deps.log.child({ feature: 'alerts' });
  const incidents = createIncidentNotifier({ db: deps.db, notify: deps.notify, log, now: deps.now });
  const deliberate = createDeliberateStops(deps.now);
  const flowAlerts = createFlowAlerts({ incidents });
  const guard =
    (what: string) =>
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args);
      } catch (err) {
        log.error({ err }, `alerts: ${what} failed`);
      }
    };

  return {
    incidents,
    /** The sessions every sign-in goes through, watched for new devices. */
    watchSignIns: (sessions: SessionService) =>
      watchSignIns({
        sessions,
        settings: deps.settings,
        notify: deps.notify,
        onError: (err) => log.error({ err }, 'alerts: the new-device check failed'),
      }),
    /** The engine as the docker feature should get it: its own stops are not crashes. */
    wrapEngine: (engine: DockerAdapter) => deliberate.wrap(engine),
    onFlowRunEnded: guard('a flow run alert')((run: EndedFlowRun) => flowAlerts(run)),

    /** Follows every source; answers the stops (each for deps.onShutdown). */
    start(sources: {
      timings: AlertTimings;
      engine: DockerAdapter;
      homeAssistant: Parameters<typeof watchHomeAssistant>[0]['connection'];
      ollama: { url: string; probe: () => Promise<unknown> };
      satellites: () => Satellite[];
      sampler: { onSample(listener: (s: MetricSample) => void): () => void };
      host: { diskPaths: string[]; memory?: () => MemoryPressure | null; thermal?: () => ThermalTrip[] };
      vpn: () => Promise<VpnStatus>;
      /** The hub's uplink monitor (issue 17), whose switches are failovers too. */
      uplinks?: () => UplinkSummary;
      subscription: () => SubscriptionPeriod | null;
      backups?: BackupRunSource;
    }): (() => void)[] {
      const { timings } = sources;
      const stops: (() => void)[] = [];
      const start = (what: string, fn: () => () => void) => {
        try {
          stops.push(fn());
        } catch (err) {
          log.error({ err }, `alerts: could not start watching ${what}`);
        }
      };
      start('Docker', () =>
        watchDockerEvents({
          engine: sources.engine,
          alerts: createContainerAlerts({
            incidents,
            deliberate,
            timing: { stableMs: timings.containerStableMs },
            now: deps.now,
            engine: { currentRun: containerRunOf(sources.engine), log },
          }),
          log,
        }),
      );
      start('Home Assistant', () =>
        watchHomeAssistant({ connection: sources.homeAssistant, incidents, graceMs: timings.haGraceMs }),
      );
      start('the host', () => {
        const check = guard('the host check')(createHostCheck({ incidents, ...sources.host }));
        let last = 0;
        return sources.sampler.onSample((sample) => {
          if (sample.t - last < timings.pollMs) return;
          last = sample.t;
          check();
        });
      });
      start('satellites', () =>
        every(
          timings.pollMs,
          log,
          'alerts: satellites',
          createSatelliteCheck({ list: sources.satellites, incidents }),
        ),
      );
      const slow = timings.pollMs * SLOW_POLL_FACTOR;
      start('Ollama', () =>
        every(
          slow,
          log,
          'alerts: Ollama',
          createOllamaCheck({ ...sources.ollama, incidents, settings: deps.settings }),
        ),
      );
      start('the VPN', () =>
        every(
          slow,
          log,
          'alerts: VPN',
          createVpnCheck({ status: sources.vpn, uplinks: sources.uplinks, incidents }),
        ),
      );
      start('the licence', () => {
        const check = createSubscriptionCheck({ period: sources.subscription, incidents, now: deps.now });
        guard('the licence check')(check)();
        return every(slow, log, 'alerts: licence', check);
      });
      if (sources.backups) {
        const backups = sources.backups;
        start('backups', () => watchBackups({ backups, incidents }));
      }
      return stops;
    },
  };
}

export type Alerts = ReturnType<typeof createAlerts>;
