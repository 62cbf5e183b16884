import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * Label/value pairs as a definition list: the one fact list of every screen (dashboard cards,
 * diagnostics, billing, connections, Home Assistant, model details).
 */
export function Facts({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('grid gap-2 text-sm', className)}>{children}</dl>;
}

/** One pair. `row`: label left, value right (long values wrap); `stacked`: the label above the value. */
export function Fact({
  label,
  children,
  layout = 'row',
}: {
  label: ReactNode;
  children: ReactNode;
  layout?: 'row' | 'stacked';
}) {
  if (layout === 'stacked') {
    return (
      <div className="grid gap-0.5">
        <dt className="text-muted-foreground">{label}</dt>
        <dd className="font-medium break-words tabular-nums">{children}</dd>
      </div>
    );
  }
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium break-words tabular-nums">{children}</dd>
    </div>
  );
}
