import { BAD_STATUS_WORDS, GOOD_STATUS_WORDS, WARNING_STATUS_WORDS } from '@nexus/agent/contract';

/** The four tones a status can have on every screen (one look: one badge, one set of colours). */
export type StatusTone = 'good' | 'bad' | 'warning' | 'neutral';

const GOOD = new Set<string>(GOOD_STATUS_WORDS);
const BAD = new Set<string>(BAD_STATUS_WORDS);
const WARNING = new Set<string>(WARNING_STATUS_WORDS);

/** Spec §4 "Status words": online, connected, running, active are good; offline, disconnected, stopped bad; degraded, warning a warning. */
export function statusTone(word: string | null | undefined): StatusTone {
  const key = word?.trim().toLowerCase() ?? '';
  if (GOOD.has(key)) return 'good';
  if (BAD.has(key)) return 'bad';
  if (WARNING.has(key)) return 'warning';
  return 'neutral';
}

/**
 * Text colour per tone, from the theme's tokens. The light theme's amber token is a fill colour
 * (3.6:1 on white), so warning text takes a darker amber there to stay readable.
 */
export const TONE_TEXT_CLASS: Record<StatusTone, string> = {
  good: 'text-success',
  bad: 'text-destructive',
  warning: 'text-amber-700 dark:text-warning',
  neutral: 'text-muted-foreground',
};

/** A status word for people: "not_configured" → "Not configured". */
export function statusLabel(word: string): string {
  const spaced = word.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
