import { AlertCircle } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';

/** The titled region every screen uses (components/ui/panel.tsx). */
export { Panel as SpeechSection } from '@/components/ui/panel';

export function ErrorText({ error, prefix }: { error: unknown; prefix?: string }) {
  return (
    <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
      <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span className="break-words">
        {prefix ? `${prefix}: ` : ''}
        {errorMessage(error) ?? 'Something went wrong'}
      </span>
    </p>
  );
}

export function FormSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only">Loading</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}
