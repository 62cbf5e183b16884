import { pino, type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
