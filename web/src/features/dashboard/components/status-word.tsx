import type { ReactNode } from 'react';
import { StatusPill } from '@/components/ui/status-pill';
import { cn } from '@/lib/utils';
import { TONE_TEXT_CLASS, statusLabel, statusTone, type StatusTone } from '../dashboard-logic';

/** A pill in a tone: status words, and figures judged good or bad (response times). */
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
    <StatusPill tone={tone} className={className} {...data}>
      {children}
    </StatusPill>
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
