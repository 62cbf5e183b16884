export { LoadError } from '@/components/load-state';
import type { ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';
import { VPN_LATENCY_WARNING_MS } from '@nexus/agent/contract';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

/** A latency in ms, flagged above the spec's 100 ms. */
export function Latency({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="text-muted-foreground">Not measured</span>;
  if (ms <= VPN_LATENCY_WARNING_MS) return <span>{Math.round(ms)} ms</span>;
  return (
    <span className="inline-flex items-center gap-1 font-medium" data-flagged="true">
      <TriangleAlert aria-hidden="true" className="size-3.5 text-warning" />
      {Math.round(ms)} ms<span className="sr-only"> (high latency, above {VPN_LATENCY_WARNING_MS} ms)</span>
    </span>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="space-y-2">
      <span className="sr-only">{label}</span>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">{children}</p>;
}

/** A labelled input with its error under it, tied by aria-describedby. */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const formatTime = (iso: string) => new Date(iso).toLocaleString();
