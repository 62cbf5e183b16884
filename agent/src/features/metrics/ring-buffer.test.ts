import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.js';

describe('RingBuffer', () => {
  it('keeps items oldest first until full', () => {
    const ring = new RingBuffer<number>(3);
    expect(ring.toArray()).toEqual([]);
    expect(ring.last()).toBeUndefined();
    ring.push(1);
    ring.push(2);
    expect(ring.toArray()).toEqual([1, 2]);
    expect(ring.size).toBe(2);
    expect(ring.last()).toBe(2);
  });

  it('overwrites the oldest item once full, across many wraps', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 10; i++) ring.push(i);
    expect(ring.toArray()).toEqual([8, 9, 10]);
    expect(ring.size).toBe(3);
    expect(ring.last()).toBe(10);
  });

  it('holds exactly an hour of 1 s samples', () => {
    const ring = new RingBuffer<number>(3600);
    for (let t = 0; t < 5000; t++) ring.push(t);
    const all = ring.toArray();
    expect(all).toHaveLength(3600);
    expect(all[0]).toBe(1400);
    expect(all.at(-1)).toBe(4999);
  });

  it('takes the newest items while a condition holds', () => {
    const ring = new RingBuffer<number>(5);
    for (let i = 1; i <= 7; i++) ring.push(i);
    expect(ring.takeLastWhile((n) => n > 4)).toEqual([5, 6, 7]);
    expect(ring.takeLastWhile((n) => n > 100)).toEqual([]);
    expect(ring.takeLastWhile(() => true)).toEqual([3, 4, 5, 6, 7]);
  });

  it('clears', () => {
    const ring = new RingBuffer<string>(2);
    ring.push('a');
    ring.clear();
    expect(ring.size).toBe(0);
    ring.push('b');
    expect(ring.toArray()).toEqual(['b']);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});
