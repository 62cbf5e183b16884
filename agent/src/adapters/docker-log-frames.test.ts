import { describe, expect, it } from 'vitest';
import { LogDemuxer, MAX_LINE_BYTES, demuxLogs } from './docker-log-frames.js';

function frame(stream: 1 | 2, payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

describe('LogDemuxer', () => {
  it('splits multiplexed frames into lines tagged stdout and stderr', () => {
    const data = Buffer.concat([frame(1, 'hello\nworld\n'), frame(2, 'oops\n'), frame(1, 'bye\n')]);
    expect(demuxLogs(data, { tty: false })).toEqual([
      { stream: 'stdout', text: 'hello' },
      { stream: 'stdout', text: 'world' },
      { stream: 'stderr', text: 'oops' },
      { stream: 'stdout', text: 'bye' },
    ]);
  });

  it('reassembles headers, payloads and lines cut across chunks at every byte position', () => {
    const data = Buffer.concat([frame(1, 'first line\nsecond '), frame(1, 'half\n'), frame(2, 'err\n')]);
    const expected = [
      { stream: 'stdout', text: 'first line' },
      { stream: 'stdout', text: 'second half' },
      { stream: 'stderr', text: 'err' },
    ];
    for (let cut = 1; cut < data.length; cut++) {
      const demuxer = new LogDemuxer({ tty: false });
      const lines = [
        ...demuxer.push(data.subarray(0, cut)),
        ...demuxer.push(data.subarray(cut)),
        ...demuxer.end(),
      ];
      expect(lines, `cut at ${cut}`).toEqual(expected);
    }
  });

  it('delivers byte-by-byte input with no header bytes leaking into the text', () => {
    const data = Buffer.concat([
      frame(1, 'a\n'),
      frame(2, 'b\n'),
      frame(1, Buffer.alloc(0)),
      frame(1, 'c\n'),
    ]);
    const demuxer = new LogDemuxer({ tty: false });
    const lines = [];
    for (const byte of data) lines.push(...demuxer.push(Buffer.from([byte])));
    expect(lines.map((l) => l.text)).toEqual(['a', 'b', 'c']);
    for (const line of lines) expect([...line.text].every((ch) => ch.charCodeAt(0) >= 0x20)).toBe(true);
  });

  it('treats TTY output as raw stdout, without frame headers', () => {
    const raw = Buffer.from('\x01\x00 not a header\r\nsecond\n');
    expect(demuxLogs(raw, { tty: true })).toEqual([
      { stream: 'stdout', text: '\x01\x00 not a header' },
      { stream: 'stdout', text: 'second' },
    ]);
  });

  it('keeps multi-byte characters split across frames intact', () => {
    const text = Buffer.from('héllo ✓\n');
    const data = Buffer.concat([
      frame(1, text.subarray(0, 2)),
      frame(1, text.subarray(2, 7)),
      frame(1, text.subarray(7)),
    ]);
    expect(demuxLogs(data, { tty: false })).toEqual([{ stream: 'stdout', text: 'héllo ✓' }]);
  });

  it('separates the engine timestamp when asked to', () => {
    const data = frame(2, '2026-01-02T03:04:05.123456789Z something failed\nno stamp here\n');
    expect(demuxLogs(data, { tty: false, timestamps: true })).toEqual([
      { stream: 'stderr', text: 'something failed', ts: '2026-01-02T03:04:05.123456789Z' },
      { stream: 'stderr', text: 'no stamp here' },
    ]);
  });

  it('emits an unterminated last line at the end, and cuts endless lines', () => {
    const long = 'x'.repeat(MAX_LINE_BYTES + 10);
    const lines = demuxLogs(frame(1, `${long}\ntail`), { tty: false });
    expect(lines.map((l) => l.text.length)).toEqual([MAX_LINE_BYTES, 10, 4]);
  });
});
