import { Badge, type BadgeProps } from '@/components/ui/badge';

/** Spec §4 status words: running is good, stopped (exited, dead) is bad, the rest in between. */
export function stateVariant(state: string): BadgeProps['variant'] {
  switch (state) {
    case 'running':
      return 'success';
    case 'exited':
    case 'dead':
    case 'stopped':
    case 'missing':
      return 'destructive';
    case 'paused':
    case 'restarting':
    case 'removing':
    case 'partial':
      return 'warning';
    default:
      return 'secondary';
  }
}

export function StateBadge({ state }: { state: string }) {
  return <Badge variant={stateVariant(state)}>{state}</Badge>;
}
