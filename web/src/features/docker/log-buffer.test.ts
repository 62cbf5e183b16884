import { describe, expect, it } from 'vitest';
import { applyLiveEvent, filterLines, logFileName, withBacklog } from './log-buffer';

const line = (text: string, stream: 'stdout' | 'stderr' = 'stdout') => ({ text, stream });

describe('log buffer', () => {
  it('keeps at most the newest lines', () => {
    const buffer = withBacklog(
      Array.from({ length: 10 }, (_, i) => line(`l${i}`)),
      4,
    );
    expect(buffer.lines.map((l) => l.text)).toEqual(['l6', 'l7', 'l8', 'l9']);
    expect(new Set(buffer.lines.map((l) => l.id)).size).toBe(4);
  });

  it('appends live batches and marks gaps and coalesced lines', () => {
    let buffer = withBacklog([line('old')]);
    buffer = applyLiveEvent(buffer, { kind: 'lines', seq: 0, lines: [line('a')], coalesced: 0 });
    buffer = applyLiveEvent(buffer, { kind: 'lines', seq: 3, lines: [line('b', 'stderr')], coalesced: 5 });
    expect(buffer.lines.map((l) => l.text)).toEqual([
      'old',
      'a',
      '2 batches of lines skipped: this browser fell behind',
      '5 lines skipped: the container writes faster than can be shown',
      'b',
    ]);
    expect(buffer.lastSeq).toBe(3);
  });

  it('shows status changes except the start of following', () => {
    let buffer = withBacklog([]);
    buffer = applyLiveEvent(buffer, { kind: 'status', state: 'following', message: 'Following x' });
    expect(buffer.lines).toEqual([]);
    buffer = applyLiveEvent(buffer, { kind: 'status', state: 'waiting', message: 'The container stopped' });
    expect(buffer.lines).toMatchObject([{ kind: 'notice', text: 'The container stopped' }]);
  });

  it('filters by text and by stream, keeping notices', () => {
    let buffer = withBacklog([line('GET /a'), line('error: disk', 'stderr'), line('get /b')]);
    buffer = applyLiveEvent(buffer, { kind: 'lines', seq: 0, lines: [], coalesced: 2 });
    expect(filterLines(buffer.lines, { query: 'get', stderrOnly: false }).map((l) => l.text)).toEqual([
      'GET /a',
      'get /b',
      '2 lines skipped: the container writes faster than can be shown',
    ]);
    expect(filterLines(buffer.lines, { query: '', stderrOnly: true }).map((l) => l.text)).toEqual([
      'error: disk',
      '2 lines skipped: the container writes faster than can be shown',
    ]);
  });

  it('names downloads after the container and the time', () => {
    expect(logFileName('web', new Date('2026-01-02T03:04:05.678Z'))).toBe('web-2026-01-02T03-04-05-678Z.log');
  });
});
