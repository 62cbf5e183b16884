import type { ReactNode } from 'react';

/** Label and value pairs of the billing screens (a definition list, one pair per row). */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid gap-2 text-sm sm:grid-cols-2 sm:gap-x-8">{children}</dl>;
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-border/60 pb-1.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium break-all tabular-nums">{children}</dd>
    </div>
  );
}
