import { StatusBadge } from '@/components/status-badge';

/** Docker's state word in the console's one status badge (components/status-badge). */
export function StateBadge({ state }: { state: string }) {
  return <StatusBadge status={state} />;
}
