import { describe, expect, it } from 'vitest';
import { sharedLoad } from './lazy-code';

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

  it('forgets a failed load, so the next ask tries again', async () => {
    let calls = 0;
    const module = sharedLoad(async () => {
      calls += 1;
      if (calls === 1) throw new Error('Failed to fetch dynamically imported module');
      return 'code';
    });
    await expect(module.load()).rejects.toThrow('Failed to fetch');
    expect(module.loaded()).toBeUndefined();
    expect(await module.load()).toBe('code');
    expect(calls).toBe(2);
  });
});
