import type { Logger } from './logger.js';

export interface ProcessGuardOptions {
  /**
   * Whether an unhandled rejection ends the process (exit code 1) after it is logged. Tests set
   * this, so a promise someone forgot to handle fails the test that caused it instead of
   * scrolling past as a log line; a running hub logs it and keeps serving.
   */
  exitOnUnhandledRejection: boolean;
}

/**
 * Process-level last resort, installed once by main.ts. Every promise in the agent is meant to be
 * handled where it is made (see inBackground); these handlers make a miss visible in the agent's
 * own log (and the diagnostics bundle) rather than only on stderr.
 *
 * - unhandledRejection: logged at error. One forgotten promise is a defect in one request or job,
 *   not a corrupt process, so a hub keeps serving (Node's default would end it), unless
 *   `exitOnUnhandledRejection`.
 * - uncaughtException: logged at fatal, then the process exits with code 1, as Node does by
 *   default: after a throw that unwound an unknown stack the state cannot be trusted, and the
 *   service manager (systemd, compose) starts the agent again.
 */
export function installProcessGuards(
  proc: Pick<NodeJS.Process, 'on' | 'exit'>,
  log: Pick<Logger, 'error' | 'fatal'>,
  opts: ProcessGuardOptions,
): void {
  proc.on('unhandledRejection', (reason: unknown) => {
    safely(() => log.error({ err: reason }, 'unhandled promise rejection'));
    if (opts.exitOnUnhandledRejection) proc.exit(1);
  });
  proc.on('uncaughtException', (err: Error, origin: string) => {
    safely(() => log.fatal({ err, origin }, 'uncaught exception; exiting'));
    proc.exit(1);
  });
}

function safely(write: () => void) {
  try {
    write();
  } catch {
    // The logger itself failed: the exit (or the next line) still happens.
  }
}
