import { StatusPill, type PillTone } from '@/components/ui/status-pill';
import { humanize } from '@/lib/words';

/**
 * The console's one status badge (issue 21: screens each had their own Badge-variant maps): a
 * status word from the agent, shown as words in a StatusPill whose tone the word decides.
 */
const TONE_BY_STATUS: Record<string, PillTone> = {
  online: 'good',
  running: 'good',
  connected: 'good',
  healthy: 'good',
  succeeded: 'good',
  active: 'good',
  offline: 'bad',
  stopped: 'bad',
  exited: 'bad',
  dead: 'bad',
  missing: 'bad',
  failed: 'bad',
  error: 'bad',
  disconnected: 'bad',
  degraded: 'warning',
  paused: 'warning',
  restarting: 'warning',
  removing: 'warning',
  partial: 'warning',
  connecting: 'warning',
  reconnecting: 'warning',
};

export function statusTone(status: string): PillTone {
  return TONE_BY_STATUS[status.toLowerCase()] ?? 'neutral';
}

export function StatusBadge({
  status,
  label,
  tone,
  title,
}: {
  /** The agent's status word (`running`, `not_configured`). */
  status: string;
  /** Words to show instead of the humanised status. */
  label?: string;
  tone?: PillTone;
  title?: string;
}) {
  return (
    <StatusPill tone={tone ?? statusTone(status)} data-status={status} title={title}>
      {label ?? humanize(status)}
    </StatusPill>
  );
}
