import { Check, Minus } from 'lucide-react';
import type { SubscriptionUsage } from '@nexus/agent/contract';
import { Progress } from '@/components/ui/progress';
import { TONE_TEXT_CLASS } from '@/lib/status-words';
import { cn } from '@/lib/utils';
import { limitRows } from '../billing-logic';

/** This month's use against each limit of the plan in force; amber at 80 % and past. */
export function LimitBars({ limits }: { limits: SubscriptionUsage['limits'] }) {
  const rows = limitRows(limits);
  return (
    <ul className="grid gap-4" aria-label="Usage against the plan's limits">
      {rows.map((row) => (
        <li key={row.key} className="grid gap-1.5" data-testid={`limit-${row.key}`}>
          <div className="flex items-center justify-between gap-4 text-sm">
            <span
              className={cn(
                'text-muted-foreground',
                row.kind === 'bar' && row.warning && TONE_TEXT_CLASS.warning,
              )}
            >
              {row.label}
            </span>
            <span className="font-medium tabular-nums">
              {row.kind === 'bar'
                ? `${row.used.toLocaleString()} of ${row.allowed.toLocaleString()}`
                : row.kind === 'count'
                  ? `${row.used === null ? '' : `${row.used.toLocaleString()} of `}Unlimited`
                  : null}
              {row.kind === 'included' ? (
                row.included ? (
                  <span className="inline-flex items-center gap-1">
                    <Check aria-hidden="true" className="size-4 text-success" /> Included
                  </span>
                ) : (
                  <span className="inline-flex items-center gap-1 text-muted-foreground">
                    <Minus aria-hidden="true" className="size-4" /> Not included
                  </span>
                )
              ) : null}
            </span>
          </div>
          {row.kind === 'bar' ? (
            <>
              <Progress
                value={row.percent}
                aria-label={`${row.label}: ${row.used} of ${row.allowed} (${row.percent}%)`}
                data-warning={row.warning || undefined}
                indicatorClassName={row.warning ? 'bg-warning' : undefined}
              />
              {row.warning ? (
                <p className={cn('text-xs', TONE_TEXT_CLASS.warning)}>
                  {row.percent}% used. A higher plan lifts this limit.
                </p>
              ) : null}
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
