import { pino, type Level, type Logger } from 'pino';

export type { Logger };

/**
 * Secrets must never reach a log line: these paths cover request bodies and headers that
 * might be logged by accident, and the fields our own services use for credentials.
 */
const REDACT_PATHS = [
  'password',
  '*.password',
  'newPassword',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'totpCode',
  '*.totpCode',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

/**
 * The agent's most recent log lines, already redacted, kept in memory for the diagnostics bundle.
 * Bounded by line count and by the length of each line.
 */
export class LogRing {
  private readonly buffer: string[] = [];
  private next = 0;

  constructor(
    readonly capacity = 1000,
    readonly maxLineLength = 8 * 1024,
  ) {}

  /** pino's stream interface: one serialized JSON line per call. */
  write(line: string): void {
    const kept = line.length > this.maxLineLength ? line.slice(0, this.maxLineLength) : line;
    if (this.buffer.length < this.capacity) this.buffer.push(kept);
    else this.buffer[this.next] = kept;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Oldest first. */
  lines(): string[] {
    if (this.buffer.length < this.capacity) return [...this.buffer];
    return [...this.buffer.slice(this.next), ...this.buffer.slice(0, this.next)];
  }
}

export function createLogger(level: string, ring?: LogRing): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (!ring || level === 'silent') return pino(options);
  const streams = [
    { level: level as Level, stream: pino.destination(1) },
    { level: level as Level, stream: ring },
  ];
  return pino(options, pino.multistream(streams));
}
