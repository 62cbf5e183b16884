import { SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM, type Satellite } from '@nexus/agent/contract';
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
