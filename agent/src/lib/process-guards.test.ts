import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { installProcessGuards } from './process-guards.js';

function fakeProcess() {
  const events = new EventEmitter();
  const exit = vi.fn();
  return { proc: { on: events.on.bind(events), exit } as never, events, exit };
}

describe('process guards', () => {
  it('logs an unhandled rejection and keeps the process, or ends it when asked (tests)', () => {
    const log = { error: vi.fn(), fatal: vi.fn() };
    const running = fakeProcess();
    installProcessGuards(running.proc, log as never, { exitOnUnhandledRejection: false });
    const reason = new Error('forgotten promise');
    running.events.emit('unhandledRejection', reason, Promise.resolve());
    expect(log.error).toHaveBeenCalledWith({ err: reason }, 'unhandled promise rejection');
    expect(running.exit).not.toHaveBeenCalled();

    const testing = fakeProcess();
    installProcessGuards(testing.proc, log as never, { exitOnUnhandledRejection: true });
    testing.events.emit('unhandledRejection', reason, Promise.resolve());
    expect(testing.exit).toHaveBeenCalledWith(1);
  });

  it('logs an uncaught exception as fatal and exits 1, even when logging fails', () => {
    const log = {
      error: vi.fn(),
      fatal: vi.fn(() => {
        throw new Error('stream closed');
      }),
    };
    const running = fakeProcess();
    installProcessGuards(running.proc, log as never, { exitOnUnhandledRejection: false });
    const err = new Error('thrown from a timer');
    running.events.emit('uncaughtException', err, 'uncaughtException');
    expect(log.fatal).toHaveBeenCalledWith(
      { err, origin: 'uncaughtException' },
      'uncaught exception; exiting',
    );
    expect(running.exit).toHaveBeenCalledWith(1);
  });
});
