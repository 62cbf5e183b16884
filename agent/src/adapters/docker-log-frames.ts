/**
 * Turns the Docker Engine API's log byte stream into lines tagged with their stream.
 *
 * Without a TTY the engine multiplexes stdout and stderr (Engine API, "Attach to a container":
 * "Stream format"): each frame starts with an 8-byte header `[STREAM_TYPE, 0, 0, 0, SIZE1..SIZE4]`,
 * STREAM_TYPE 0 stdin, 1 stdout, 2 stderr, SIZE a big-endian uint32, then SIZE bytes of payload.
 * Frames do not line up with lines or with the chunks a socket delivers, so both are reassembled
 * here. A container with a TTY sends its output raw, with no headers: all of it is stdout.
 */

export type LogStream = 'stdout' | 'stderr';

export interface LogLine {
  stream: LogStream;
  text: string;
  /** The engine's RFC 3339 timestamp, when the logs were requested with timestamps. */
  ts?: string;
}

const HEADER_BYTES = 8;
/** A line longer than this is cut and delivered in pieces, so a writer without newlines cannot grow memory. */
export const MAX_LINE_BYTES = 64 * 1024;
/** The engine's timestamp prefix: RFC 3339 with nanoseconds, then one space. */
const TIMESTAMP_PREFIX = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:\d{2})) /;

class LineAssembler {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly stream: LogStream,
    private readonly timestamps: boolean,
  ) {}

  push(data: Buffer, out: LogLine[]): void {
    let start = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, start);
      if (newline === -1) break;
      this.append(data.subarray(start, newline), out);
      this.flush(out);
      start = newline + 1;
    }
    if (start < data.length) this.append(data.subarray(start), out);
  }

  /** Emits what is left of an unterminated last line. */
  end(out: LogLine[]): void {
    if (this.size > 0) this.flush(out);
  }

  private append(piece: Buffer, out: LogLine[]): void {
    while (piece.length > 0) {
      const room = MAX_LINE_BYTES - this.size;
      const take = piece.subarray(0, room);
      this.parts.push(take);
      this.size += take.length;
      piece = piece.subarray(take.length);
      if (this.size >= MAX_LINE_BYTES) this.flush(out);
    }
  }

  private flush(out: LogLine[]): void {
    let text = (this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)).toString('utf8');
    this.parts = [];
    this.size = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (this.timestamps) {
      const match = TIMESTAMP_PREFIX.exec(text);
      if (match) {
        out.push({ stream: this.stream, text: text.slice(match[0].length), ts: match[1] });
        return;
      }
    }
    out.push({ stream: this.stream, text });
  }
}

export class LogDemuxer {
  private pending: Buffer = Buffer.alloc(0);
  /** Stream and bytes left of the frame being read, once its header is known. */
  private frameStream: LogStream | null = null;
  private frameLeft = 0;
  private readonly lines: Record<LogStream, LineAssembler>;

  constructor(private readonly opts: { tty: boolean; timestamps?: boolean }) {
    const timestamps = opts.timestamps ?? false;
    this.lines = {
      stdout: new LineAssembler('stdout', timestamps),
      stderr: new LineAssembler('stderr', timestamps),
    };
  }

  /** Feeds the next chunk of the engine's stream; returns the lines it completed. */
  push(chunk: Buffer): LogLine[] {
    const out: LogLine[] = [];
    if (this.opts.tty) {
      this.lines.stdout.push(chunk, out);
      return out;
    }
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.frameStream === null) {
        if (data.length < HEADER_BYTES) {
          this.pending = Buffer.from(data);
          break;
        }
        // stdin (0) only appears on attach; treat it, and anything unexpected, as stdout.
        this.frameStream = data[0] === 2 ? 'stderr' : 'stdout';
        this.frameLeft = data.readUInt32BE(4);
        data = data.subarray(HEADER_BYTES);
        if (this.frameLeft === 0) this.frameStream = null;
        continue;
      }
      const take = Math.min(this.frameLeft, data.length);
      this.lines[this.frameStream].push(data.subarray(0, take), out);
      this.frameLeft -= take;
      data = data.subarray(take);
      if (this.frameLeft === 0) this.frameStream = null;
    }
    return out;
  }

  /** The stream ended: returns unterminated last lines. */
  end(): LogLine[] {
    const out: LogLine[] = [];
    this.lines.stdout.end(out);
    this.lines.stderr.end(out);
    return out;
  }
}

/** Demultiplexes a whole log buffer (the non-following logs call). */
export function demuxLogs(buffer: Buffer, opts: { tty: boolean; timestamps?: boolean }): LogLine[] {
  const demuxer = new LogDemuxer(opts);
  return [...demuxer.push(buffer), ...demuxer.end()];
}
