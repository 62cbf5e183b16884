import type { HaConnectionState } from '../../contract/home-assistant.js';
import type { IncidentNotifier } from './incidents.js';

export const HA_INCIDENT_KEY = 'home-assistant:disconnected';
const LINK = '/ha-connection-setup';

/**
 * Home Assistant disconnected for longer than graceMs (60 s in production): a restart of HA or a
 * Wi-Fi hiccup that the connection rides out by itself says nothing. Cleared when it reconnects.
 * A hub without Home Assistant (not_configured) has nothing to report.
 */
export function watchHomeAssistant(deps: {
  connection: {
    readonly state: HaConnectionState;
    readonly message: string | null;
    onChange(listener: (c: { kind: string }) => void): void;
  };
  incidents: IncidentNotifier;
  graceMs: number;
}): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  function check() {
    if (stopped) return;
    const state = deps.connection.state;
    if (state === 'connected') {
      cancel();
      deps.incidents.clear(HA_INCIDENT_KEY, {
        category: 'home-assistant',
        title: 'Home Assistant is connected again',
        link: LINK,
      });
      return;
    }
    if (state === 'not_configured') {
      // Its settings were removed: nothing is down that should be up.
      cancel();
      deps.incidents.forget(HA_INCIDENT_KEY);
      return;
    }
    if (timer || deps.incidents.isOpen(HA_INCIDENT_KEY)) return;
    timer = setTimeout(() => {
      timer = null;
      if (stopped || deps.connection.state === 'connected' || deps.connection.state === 'not_configured')
        return;
      deps.incidents.open(HA_INCIDENT_KEY, {
        category: 'home-assistant',
        level: 'error',
        title: 'Home Assistant is disconnected',
        body:
          deps.connection.state === 'auth_invalid'
            ? 'Home Assistant refused the access token. Enter a new one.'
            : `No connection for over ${Math.round(deps.graceMs / 1000)} s${deps.connection.message ? `: ${deps.connection.message}` : ''}.`,
        link: LINK,
      });
    }, deps.graceMs);
    timer.unref();
  }

  deps.connection.onChange((change) => {
    if (change.kind === 'connection') check();
  });
  check();
  return () => {
    stopped = true;
    cancel();
  };
}
