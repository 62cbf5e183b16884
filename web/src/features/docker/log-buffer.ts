import type { DockerLogsEvent, LogLine } from '@nexus/agent/contract';

/** What the log view keeps; older lines leave as new ones arrive (the download has them all). */
export const MAX_VIEW_LINES = 2_000;

export type ViewLine =
  (LogLine & { id: number; kind: 'line' }) | { id: number; kind: 'notice'; text: string };

export interface LogBuffer {
  lines: ViewLine[];
  nextId: number;
  /** The seq of the last live batch seen, to notice batches the agent dropped for this browser. */
  lastSeq: number | null;
  /** Lines held back while the view is paused. */
  held: number;
}

export const emptyBuffer = (): LogBuffer => ({ lines: [], nextId: 0, lastSeq: null, held: 0 });

function append(buffer: LogBuffer, items: (LogLine | { notice: string })[], max: number): LogBuffer {
  let nextId = buffer.nextId;
  const added: ViewLine[] = items.map((item) =>
    'notice' in item
      ? { id: nextId++, kind: 'notice', text: item.notice }
      : { ...item, id: nextId++, kind: 'line' },
  );
  const lines = [...buffer.lines, ...added];
  return { ...buffer, lines: lines.length > max ? lines.slice(lines.length - max) : lines, nextId };
}

/** The backlog loaded over HTTP before following starts. */
export function withBacklog(lines: LogLine[], max = MAX_VIEW_LINES): LogBuffer {
  return append(emptyBuffer(), lines, max);
}

/**
 * Applies one live event. A gap in `seq` means the agent dropped batches because this browser
 * read too slowly; `coalesced` counts lines the agent itself skipped. Both are shown as notices,
 * so a reader knows the view is not complete there.
 */
export function applyLiveEvent(buffer: LogBuffer, event: DockerLogsEvent, max = MAX_VIEW_LINES): LogBuffer {
  if (event.kind === 'status') {
    if (event.state === 'following') return buffer;
    return append(buffer, [{ notice: event.message }], max);
  }
  const items: (LogLine | { notice: string })[] = [];
  if (buffer.lastSeq !== null && event.seq > buffer.lastSeq + 1) {
    const missed = event.seq - buffer.lastSeq - 1;
    items.push({
      notice: `${missed} batch${missed === 1 ? '' : 'es'} of lines skipped: this browser fell behind`,
    });
  }
  if (event.coalesced > 0) {
    items.push({ notice: `${event.coalesced} lines skipped: the container writes faster than can be shown` });
  }
  items.push(...event.lines);
  // A new follow (container restarted, agent reconnected) starts again at seq 0.
  return { ...append(buffer, items, max), lastSeq: event.seq };
}

export interface LogFilter {
  query: string;
  stderrOnly: boolean;
}

/** Case-insensitive text match; notices always stay so gaps remain visible. */
export function filterLines(lines: ViewLine[], filter: LogFilter): ViewLine[] {
  const query = filter.query.trim().toLowerCase();
  if (!query && !filter.stderrOnly) return lines;
  return lines.filter((line) => {
    if (line.kind === 'notice') return true;
    if (filter.stderrOnly && line.stream !== 'stderr') return false;
    return !query || line.text.toLowerCase().includes(query);
  });
}

/** A file name for a downloaded log: the container and the time. */
export function logFileName(container: string, now: Date): string {
  return `${container}-${now.toISOString().replace(/[:.]/g, '-')}.log`;
}
