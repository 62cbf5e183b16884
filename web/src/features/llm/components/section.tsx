import { Skeleton } from '@/components/ui/skeleton';

/** The titled region every screen uses (components/ui/panel.tsx). */
export { Panel as Section } from '@/components/ui/panel';
export { EmptyState, LoadError, RefreshError } from '@/components/load-state';

export function RowsSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only">Loading</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-6 w-full" />
      ))}
    </div>
  );
}
