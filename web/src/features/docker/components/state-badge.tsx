import { StatusBadge } from '@/components/status-badge';
import type { StatusTone } from '@/lib/status-words';

/** Spec §4 status words: running is good, stopped (exited, dead) is bad, the rest in between. */
export function stateTone(state: string): StatusTone {
  switch (state) {
    case 'running':
      return 'good';
    case 'exited':
    case 'dead':
    case 'stopped':
    case 'missing':
      return 'bad';
    case 'paused':
    case 'restarting':
    case 'removing':
    case 'partial':
      return 'warning';
    default:
      return 'neutral';
  }
}

/** Docker's own word (the engine's, as `docker ps` shows it), capitalised like every badge. */
export function StateBadge({ state }: { state: string }) {
  return <StatusBadge word={state} tone={stateTone(state)} />;
}
