import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { TONE_TEXT_CLASS, statusLabel, statusTone, type StatusTone } from '../dashboard-logic';

const TONE_BADGE_VARIANT = {
  good: 'success',
  bad: 'outline',
  warning: 'warning',
  neutral: 'secondary',
} as const satisfies Record<StatusTone, string>;

/** Bad words use the same tinted look as good and warning ones: red text on a faint red ground reads in both themes. */
const TONE_BADGE_CLASS: Record<StatusTone, string> = {
  good: '',
  bad: 'border-destructive/30 bg-destructive/10 text-destructive',
  warning: '',
  neutral: '',
};

const TONE_DOT_CLASS: Record<StatusTone, string> = {
  good: 'bg-success',
  bad: 'bg-destructive',
  warning: 'bg-warning',
  neutral: 'bg-muted-foreground',
};

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
  const resolved = tone ?? statusTone(word);
  return (
    <Badge
      variant={TONE_BADGE_VARIANT[resolved]}
      data-tone={resolved}
      className={cn(TONE_BADGE_CLASS[resolved], className)}
    >
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', TONE_DOT_CLASS[resolved])} />
      {children ?? statusLabel(word)}
    </Badge>
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
