import { describe, expect, it, vi } from 'vitest';
import { inBackground } from './background.js';

describe('inBackground', () => {
  it('logs a rejected promise, a rejecting function and a function that throws at once', async () => {
    const log = { error: vi.fn() };
    const boom = new Error('boom');
    inBackground(log, 'a promise', Promise.reject(boom));
    inBackground(log, 'an async function', async () => {
      throw boom;
    });
    inBackground(log, 'a function', () => {
      throw boom;
    });
    await vi.waitFor(() => expect(log.error).toHaveBeenCalledTimes(3));
    expect(log.error.mock.calls.map((call) => call[1])).toEqual([
      'a promise failed',
      'an async function failed',
      'a function failed',
    ]);
    expect(log.error.mock.calls[0]![0]).toEqual({ err: boom });
  });

  it('says nothing about work that succeeds', async () => {
    const log = { error: vi.fn() };
    const done = Promise.resolve(1);
    inBackground(log, 'fine', done);
    await done;
    await new Promise((r) => setImmediate(r));
    expect(log.error).not.toHaveBeenCalled();
  });
});
