import { describe, expect, it } from 'vitest';
import { jsonDeeperThan } from './body-limits.js';

describe('jsonDeeperThan', () => {
  it('counts nesting of arrays and objects', () => {
    expect(jsonDeeperThan('[[[1]]]', 3)).toBe(false);
    expect(jsonDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(jsonDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonDeeperThan('[1],[2],[3]', 1)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDeeperThan('{"t":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonDeeperThan('{"t":"a\\"[[[[[","u":1}', 1)).toBe(false);
    expect(jsonDeeperThan('["\\\\",[[[1]]]]', 3)).toBe(true);
  });

  it('scans a megabyte of nesting without recursion', () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    expect(jsonDeeperThan(deep, 64)).toBe(true);
  });
});
