import { useId, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/** A titled card that is also a named region, so screen readers can jump between panels. */
export function Panel({
  title,
  description,
  icon: Icon,
  actions,
  className,
  children,
}: {
  title: string;
  description?: ReactNode;
  icon: LucideIcon;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId} className={cn('flex min-w-0 flex-col', className)}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0 pb-4">
        <div className="flex min-w-0 items-start gap-2">
          <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
            <Icon aria-hidden="true" className="size-4" />
          </span>
          <div className="min-w-0">
            <h2 id={headingId} className="leading-8 font-semibold tracking-tight">
              {title}
            </h2>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </div>
        </div>
        {actions}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">{children}</CardContent>
    </Card>
  );
}
