import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export type PillTone = 'good' | 'bad' | 'warning' | 'neutral';

/**
 * The tone is carried by the tinted ground, the border and the dot; the text stays in the
 * foreground colour, because small green or amber text on a green or amber tint falls below
 * WCAG's 4.5:1 in one theme or the other.
 */
const PILL_CLASS: Record<PillTone, string> = {
  good: 'border-success/40 bg-success/10',
  bad: 'border-destructive/40 bg-destructive/10',
  warning: 'border-warning/50 bg-warning/15',
  neutral: 'border-transparent bg-secondary',
};

const DOT_CLASS: Record<PillTone, string> = {
  good: 'bg-success',
  bad: 'bg-destructive',
  warning: 'bg-warning',
  neutral: 'bg-muted-foreground',
};

export interface StatusPillProps extends ComponentProps<'span'> {
  tone: PillTone;
  /** A gently pulsing dot, for something live. */
  pulse?: boolean;
}

/** A small status pill: a coloured dot and a word, e.g. "Online", "Live", "Degraded". */
export function StatusPill({ tone, pulse = false, className, children, ...props }: StatusPillProps) {
  return (
    <span
      data-slot="status-pill"
      data-tone={tone}
      className={cn(
        'inline-flex w-fit shrink-0 items-center gap-1.5 rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap text-foreground',
        PILL_CLASS[tone],
        className,
      )}
      {...props}
    >
      <span
        aria-hidden="true"
        className={cn('size-1.5 rounded-full', DOT_CLASS[tone], pulse && 'animate-pulse')}
      />
      {children}
    </span>
  );
}
