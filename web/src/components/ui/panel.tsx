import { useId, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/**
 * The console's one titled card (issue 21: screens had eight copies): a card that is also a named
 * region, so screen readers can jump between panels, with an optional icon, a description and
 * actions (a status pill, a button) beside the title.
 */
export function Panel({
  title,
  description,
  icon: Icon,
  actions,
  className,
  contentClassName,
  children,
}: {
  title: string;
  description?: ReactNode;
  icon?: LucideIcon;
  actions?: ReactNode;
  className?: string;
  /** Replaces the content's default layout (a column with gaps). */
  contentClassName?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId} className={cn('flex min-w-0 flex-col', className)}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0 pb-4">
        <div className="flex min-w-0 items-start gap-2">
          {Icon ? (
            <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-4" />
            </span>
          ) : null}
          <div className="min-w-0">
            <h2 id={headingId} className="leading-8 font-semibold tracking-tight">
              {title}
            </h2>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </div>
        </div>
        {actions}
      </CardHeader>
      <CardContent className={contentClassName ?? 'flex flex-1 flex-col gap-4'}>{children}</CardContent>
    </Card>
  );
}
