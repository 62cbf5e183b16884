import { useId, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { AlertCircle, RefreshCw, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';

interface DashboardCardProps {
  title: string;
  icon: LucideIcon;
  /** Shown at the right of the title: usually the status badge. */
  badge?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A dashboard card: a named region (screen readers can jump between cards) with a title row. */
export function DashboardCard({ title, icon: Icon, badge, className, children }: DashboardCardProps) {
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId} className={cn('flex flex-col', className)}>
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0 pb-4">
        <div className="flex min-w-0 items-center gap-2">
          <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
            <Icon aria-hidden="true" className="size-4" />
          </span>
          <h2 id={headingId} className="truncate leading-none font-semibold tracking-tight">
            {title}
          </h2>
        </div>
        {badge}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

interface QueryCardProps<T> extends Omit<DashboardCardProps, 'children' | 'badge'> {
  query: UseQueryResult<T, Error>;
  /** What the card could not reach when the call fails: "Couldn't reach <source>". */
  source: string;
  badge?: (data: T) => ReactNode;
  skeletonRows?: number;
  children: (data: T) => ReactNode;
}

/**
 * A card fed by one polled call: a skeleton until the first answer, the agent's message when the
 * call fails, and the last good figures (with a note) when a later poll fails.
 */
export function QueryCard<T>({
  query,
  source,
  badge,
  skeletonRows = 3,
  children,
  ...card
}: QueryCardProps<T>) {
  const { data, error } = query;
  if (data === undefined) {
    return (
      <DashboardCard {...card} badge={error ? undefined : <Skeleton className="h-5 w-16" />}>
        {error ? (
          <CardError
            source={source}
            error={error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : (
          <CardSkeleton rows={skeletonRows} />
        )}
      </DashboardCard>
    );
  }
  return (
    <DashboardCard {...card} badge={badge?.(data)}>
      {children(data)}
      {error ? (
        <p className="flex items-center gap-1.5 text-xs text-destructive">
          <AlertCircle aria-hidden="true" className="size-3.5" />
          Last update failed: {errorMessage(error) ?? error.message}
        </p>
      ) : null}
    </DashboardCard>
  );
}

export function CardSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      <span className="sr-only">Loading</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center justify-between gap-4">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-16" />
        </div>
      ))}
    </div>
  );
}

export function CardError({
  source,
  error,
  onRetry,
  retrying,
}: {
  source: string;
  error: Error;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 text-sm">
      <div className="flex items-start gap-2 text-destructive">
        <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div>
          <p className="font-medium">Couldn&apos;t reach {source}</p>
          <p className="break-words text-destructive/90">{errorMessage(error) ?? error.message}</p>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden="true" className={cn(retrying && 'animate-spin')} />
        Try again
      </Button>
    </div>
  );
}

/** An empty state that says what to do next, with the link that does it. */
export function CardEmpty({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action: { label: string; href: string };
}) {
  return (
    <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed p-4 text-sm">
      <p className="font-medium">{title}</p>
      <p className="text-muted-foreground">{children}</p>
      <Button asChild variant="outline" size="sm" className="mt-1">
        <Link href={action.href}>{action.label}</Link>
      </Button>
    </div>
  );
}

export { Fact, Facts } from '@/components/fact-list';
