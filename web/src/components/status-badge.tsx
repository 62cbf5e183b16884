import type { ReactNode } from 'react';
import { StatusPill } from '@/components/ui/status-pill';
import { TONE_TEXT_CLASS, statusLabel, statusTone, type StatusTone } from '@/lib/status-words';
import { cn } from '@/lib/utils';

/**
 * The one status badge of the console (issue 21 "one look"): a pill whose tone comes from spec
 * §4's status words unless the caller knows better (a Docker state, a check's verdict).
 */
export function StatusBadge({
  word,
  tone,
  pulse,
  children,
  className,
  title,
  ...data
}: {
  /** The status word; its tone and its label ("not_configured" → "Not configured") come from it. */
  word?: string;
  /** Overrides the tone the word itself has (e.g. "Healthy", which is not a §4 word). */
  tone?: StatusTone;
  /** A gently pulsing dot, for something live. */
  pulse?: boolean;
  /** Overrides the label. */
  children?: ReactNode;
  className?: string;
  /** A longer explanation on hover (e.g. a provider's last error). */
  title?: string;
  [dataAttribute: `data-${string}`]: string | undefined;
}) {
  return (
    <StatusPill tone={tone ?? statusTone(word)} pulse={pulse} className={className} title={title} {...data}>
      {children ?? (word === undefined ? null : statusLabel(word))}
    </StatusPill>
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
