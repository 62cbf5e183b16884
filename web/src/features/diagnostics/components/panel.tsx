import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

export { Panel } from '@/components/ui/panel';

export function Facts({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('grid gap-2 text-sm', className)}>{children}</dl>;
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium break-words tabular-nums">{children}</dd>
    </div>
  );
}
