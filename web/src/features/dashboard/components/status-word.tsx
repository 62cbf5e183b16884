import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { TONE_TEXT_CLASS, statusLabel, statusTone, type StatusTone } from '../dashboard-logic';

/**
 * The tone is carried by the tinted ground, the border and the dot; the word itself stays in the
 * foreground colour, because small green or amber text on a green or amber tint falls below
 * WCAG's 4.5:1 in one theme or the other.
 */
const TONE_PILL_CLASS: Record<StatusTone, string> = {
  good: 'border-success/40 bg-success/10',
  bad: 'border-destructive/40 bg-destructive/10',
  warning: 'border-warning/50 bg-warning/15',
  neutral: 'border-transparent bg-secondary',
};

const TONE_DOT_CLASS: Record<StatusTone, string> = {
  good: 'bg-success',
  bad: 'bg-destructive',
  warning: 'bg-warning',
  neutral: 'bg-muted-foreground',
};

/** A small pill in a tone: used for status words and for figures judged good or bad (response times). */
export function TonePill({
  tone,
  children,
  className,
  ...data
}: {
  tone: StatusTone;
  children: ReactNode;
  className?: string;
  [dataAttribute: `data-${string}`]: string | undefined;
}) {
  return (
    <Badge
      variant="outline"
      data-tone={tone}
      className={cn('text-foreground', TONE_PILL_CLASS[tone], className)}
      {...data}
    >
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', TONE_DOT_CLASS[tone])} />
      {children}
    </Badge>
  );
}

/** A status word as a badge coloured by spec §4's good / bad / warning sets. */
export function StatusBadge({
  word,
  tone,
  children,
  className,
}: {
  word: string;
  /** Overrides the tone the word itself has (e.g. "Healthy", which is not a §4 word). */
  tone?: StatusTone;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <TonePill tone={tone ?? statusTone(word)} className={className}>
      {children ?? statusLabel(word)}
    </TonePill>
  );
}

/** A status word inline in text, coloured by its tone. */
export function StatusText({
  word,
  tone,
  className,
}: {
  word: string;
  tone?: StatusTone;
  className?: string;
}) {
  const resolved = tone ?? statusTone(word);
  return (
    <span data-tone={resolved} className={cn('font-medium', TONE_TEXT_CLASS[resolved], className)}>
      {statusLabel(word)}
    </span>
  );
}
