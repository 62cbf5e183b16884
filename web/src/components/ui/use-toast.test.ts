import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToasts, toast } from './use-toast';

beforeEach(() => {
  vi.useFakeTimers();
  dismissToast();
  vi.runAllTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the toast store', () => {
  it('adds an open toast with its options and returns handles', () => {
    const handle = toast({ title: 'Login successful', description: 'Welcome back!' });
    expect(getToasts()).toEqual([
      { id: handle.id, title: 'Login successful', description: 'Welcome back!', open: true },
    ]);
    handle.update({ description: 'Still here' });
    expect(getToasts()[0]?.description).toBe('Still here');
  });

  it('closes a dismissed toast at once and forgets it after its exit animation', () => {
    const first = toast({ title: 'one' });
    const second = toast({ title: 'two' });
    first.dismiss();
    expect(getToasts().map((t) => [t.id, t.open])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    vi.advanceTimersByTime(1000);
    expect(getToasts().map((t) => t.id)).toEqual([second.id]);
  });

  it('keeps at most three open, closing the oldest first', () => {
    const ids = ['a', 'b', 'c', 'd'].map((title) => toast({ title }).id);
    expect(
      getToasts()
        .filter((t) => t.open)
        .map((t) => t.title),
    ).toEqual(['b', 'c', 'd']);
    vi.runAllTimers();
    expect(getToasts().map((t) => t.id)).toEqual(ids.slice(1));
  });

  it('dismisses everything when no id is given', () => {
    toast({ title: 'a' });
    toast({ title: 'b', variant: 'destructive' });
    dismissToast();
    expect(getToasts().every((t) => !t.open)).toBe(true);
    vi.runAllTimers();
    expect(getToasts()).toEqual([]);
  });
});
