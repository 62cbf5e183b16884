import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_RETRY_WAITS_MS, isCodeFetchFailure, loadCode, sharedLoad } from './lazy-code';

/** What Chromium's import() rejects with when the file's fetch failed (e.g. ERR_NETWORK_CHANGED). */
const fetchFailed = () =>
  new TypeError('Failed to fetch dynamically imported module: http://hub/assets/docker-x1.js');

/** A load that fails its fetch `failures` times, then gives the code. */
function flakyLoad(failures: number) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count += 1;
    if (calls.count <= failures) throw fetchFailed();
    return 'code';
  };
  return { load, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('isCodeFetchFailure', () => {
  it('knows each browser’s words for a module file that could not be fetched', () => {
    expect(isCodeFetchFailure(fetchFailed())).toBe(true);
    expect(
      isCodeFetchFailure(new TypeError('error loading dynamically imported module: http://hub/a.js')),
    ).toBe(true);
    expect(isCodeFetchFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isCodeFetchFailure(new Error('Unable to preload CSS for /assets/web-x.css'))).toBe(true);
  });

  it('leaves out code that ran and threw, and a failed data request', () => {
    expect(isCodeFetchFailure(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(
      false,
    );
    expect(isCodeFetchFailure(new TypeError('Failed to fetch'))).toBe(false);
    expect(isCodeFetchFailure('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('loadCode (a network change fails the fetches in flight)', () => {
  it('asks again after each wait while the fetch fails, and gives the code once it arrives', async () => {
    vi.useFakeTimers();
    const { load, calls } = flakyLoad(2);
    const code = loadCode(load);
    await vi.advanceTimersByTimeAsync(CODE_RETRY_WAITS_MS[0] - 1);
    expect(calls.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.count).toBe(2);
    await vi.advanceTimersByTimeAsync(CODE_RETRY_WAITS_MS[1]);
    expect(calls.count).toBe(3);
    await expect(code).resolves.toBe('code');
  });

  it('gives up after the last wait with the browser’s own error', async () => {
    const { load, calls } = flakyLoad(Infinity);
    await expect(loadCode(load, [0, 0])).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(calls.count).toBe(3);
  });

  it('does not ask again for code that arrived and threw while it ran', async () => {
    let calls = 0;
    const broken = async () => {
      calls += 1;
      throw new ReferenceError('x is not defined');
    };
    await expect(loadCode(broken, [0, 0])).rejects.toThrow('x is not defined');
    expect(calls).toBe(1);
  });
});

describe('sharedLoad (a screen’s or the frame’s code, asked for from several places)', () => {
  it('loads once for every caller and keeps what it gave', async () => {
    let calls = 0;
    const module = sharedLoad(async () => ({ n: ++calls }));
    expect(module.loaded()).toBeUndefined();
    const [a, b] = await Promise.all([module.load(), module.load()]);
    expect(a).toBe(b);
    expect(await module.load()).toBe(a);
    expect(module.loaded()).toBe(a);
    expect(calls).toBe(1);
  });

  it('rides out a failed fetch for every caller at once', async () => {
    vi.useFakeTimers();
    const { load, calls } = flakyLoad(1);
    const module = sharedLoad(load);
    const both = Promise.all([module.load(), module.load()]);
    await vi.advanceTimersByTimeAsync(CODE_RETRY_WAITS_MS[0]);
    await expect(both).resolves.toEqual(['code', 'code']);
    expect(calls.count).toBe(2);
  });

  it('forgets a load that failed even after its retries, so the next ask tries again', async () => {
    vi.useFakeTimers();
    const retries = CODE_RETRY_WAITS_MS.length;
    const { load, calls } = flakyLoad(retries + 1);
    const module = sharedLoad(load);
    const first = module.load();
    const settled = expect(first).rejects.toThrow('Failed to fetch');
    await vi.runAllTimersAsync();
    await settled;
    expect(calls.count).toBe(retries + 1);
    expect(module.loaded()).toBeUndefined();
    expect(await module.load()).toBe('code');
    expect(calls.count).toBe(retries + 2);
  });
});
