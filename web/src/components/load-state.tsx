import type { ReactNode } from 'react';
import { AlertCircle, RefreshCw, type LucideIcon } from 'lucide-react';
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
