import {
  SATELLITE_SOURCE_LABELS,
  SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM,
  type Satellite,
  type SatelliteSource,
} from '@nexus/agent/contract';
import type { PillTone } from '@/components/ui/status-pill';

export const STATUS_PILL: Record<Satellite['status'], { tone: PillTone; word: string }> = {
  online: { tone: 'good', word: 'Online' },
  degraded: { tone: 'warning', word: 'Degraded' },
  offline: { tone: 'bad', word: 'Offline' },
};

/** Spec §9's threshold, the one the dashboard's signal badge uses, so both screens call the same reading weak. */
export function isWeakSignal(dbm: number): boolean {
  return Math.abs(dbm) >= SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM;
}

/**
 * How long ago, measured from when the list was fetched rather than from the moment of rendering:
 * the figure then changes only with each refresh, together with the status beside it.
 */
export function formatAgo(iso: string | null, now: number): string {
  if (!iso) return 'Never';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'Unknown';
  // The hub's clock and the browser's may differ by a little; a future time reads as now.
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 5) return 'Just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** curl commands to paste: the URLs are quoted for their `?` and `<…>`; a token is base64url, safe anywhere. */
export function setupCommands(
  endpoints: { heartbeat: string; voiceRun: string; wakeWordSample: string },
  token: string,
) {
  const auth = `  -H "Authorization: Bearer ${token}" \\`;
  return {
    heartbeat: [
      `curl -X POST "${endpoints.heartbeat}" \\`,
      auth,
      `  -H "Content-Type: application/json" \\`,
      `  -d '{"signalStrength": -55, "activeWakeWord": "hey nexus", "firmwareVersion": "1.0.0"}'`,
    ].join('\n'),
    voiceRun: [
      `curl -X POST "${endpoints.voiceRun}" \\`,
      auth,
      `  -H "Content-Type: audio/wav" \\`,
      `  --data-binary @heard.wav`,
    ].join('\n'),
    wakeWordSample: [
      `curl -X POST "${endpoints.wakeWordSample}" \\`,
      auth,
      `  -H "Content-Type: audio/wav" \\`,
      `  --data-binary @take.wav`,
    ].join('\n'),
  };
}

/** The source as the fleet's badge names it. */
export function sourceLabel(source: SatelliteSource): string {
  return SATELLITE_SOURCE_LABELS[source];
}

/**
 * A wake word as people read it. ESPHome's wake-word select lists `no_wake_word` among its raw
 * options (the device then listens for none); the other options are already names ("Okay Nabu").
 */
export function wakeWordLabel(option: string): string {
  return option === 'no_wake_word' ? 'No wake word' : option;
}

/** A FutureProofHomes Satellite1, as Home Assistant's device registry describes it. */
export function isSatellite1(satellite: Pick<Satellite, 'model' | 'manufacturer'>): boolean {
  return (
    /satellite\s*1/i.test(satellite.model ?? '') || /futureproof\s*homes/i.test(satellite.manufacturer ?? '')
  );
}

/** Where the hub reaches a Wyoming satellite, with IPv6 addresses bracketed as in a URL. */
export function wyomingAddress(wyoming: { host: string; port: number }): string {
  return wyoming.host.includes(':') ? `[${wyoming.host}]:${wyoming.port}` : `${wyoming.host}:${wyoming.port}`;
}

export const WYOMING_CONNECTION_WORDS: Record<NonNullable<Satellite['wyoming']>['connection'], string> = {
  connecting: 'Connecting',
  connected: 'Connected',
  disconnected: 'Disconnected',
};
