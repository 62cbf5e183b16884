import type { ReactNode } from 'react';
import { AlertCircle, RefreshCw, type LucideIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/request';

/** What LoadError needs of a failed react-query query: its error, and asking again. */
interface FailedQuery {
  error: unknown;
  refetch: () => Promise<unknown>;
}

/**
 * "Couldn't load the X" with the agent's reason and, when the screen can ask again, a retry button.
 * Pass the failed `query` (its error and its refetch), or an `error` with an optional `onRetry`.
 */
export function LoadError({
  what,
  query,
  error = query?.error,
  onRetry = query ? () => void query.refetch() : undefined,
}: {
  what: string;
  query?: FailedQuery;
  error?: unknown;
  onRetry?: () => void;
}) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 text-sm">
      <div className="flex items-start gap-2 text-destructive">
        <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div>
          <p className="font-medium">Couldn&apos;t load {what}</p>
          <p className="break-words">{errorMessage(error) ?? 'The hub did not answer.'}</p>
        </div>
      </div>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      ) : null}
    </div>
  );
}

/** What RefreshError needs of a query whose refresh failed after an earlier read had succeeded. */
interface StaleQuery extends FailedQuery {
  dataUpdatedAt: number;
  isRefetchError: boolean;
}

/**
 * A read that had answered and then failed to refresh (a poll the link dropped, a hub restarting):
 * the last answer stays on screen and this says since when it is not current, why, and offers to
 * ask again. Renders nothing while the query is current, so a screen puts it above what it shows:
 * `<RefreshError what="the containers" query={containers} />`. Only the first read's failure, with
 * nothing to show, is a LoadError (`query.isLoadingError`). `className` places it in its container
 * (a grid span, a margin where the container has no gap).
 */
export function RefreshError({
  what,
  query,
  className,
}: {
  what: string;
  query: StaleQuery;
  className?: string;
}) {
  if (!query.isRefetchError) return null;
  const at = new Date(query.dataUpdatedAt);
  return (
    <Alert variant="warning" data-testid="refresh-error" className={className}>
      <AlertCircle aria-hidden="true" />
      <AlertTitle>
        Couldn&apos;t refresh {what}: as it stood at{' '}
        <time dateTime={at.toISOString()}>{at.toLocaleTimeString()}</time>
      </AlertTitle>
      <AlertDescription className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="break-words">{errorMessage(query.error) ?? 'The hub did not answer.'}</span>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** Nothing here yet: what is missing and (as children) the one action that changes that. */
export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon?: LucideIcon;
  title?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-6 text-center text-sm">
      {Icon ? <Icon aria-hidden="true" className="size-6 text-muted-foreground" /> : null}
      {title ? <p className="font-medium">{title}</p> : null}
      {children ? <div className="max-w-md text-muted-foreground">{children}</div> : null}
    </div>
  );
}
