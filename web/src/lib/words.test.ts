import { describe, expect, it } from 'vitest';
import { humanize } from './words';

describe('humanize', () => {
  it.each([
    ['not_configured', 'Not configured'],
    ['auth_invalid', 'Auth invalid'],
    ['trialing', 'Trialing'],
    ['past-due', 'Past due'],
    ['', ''],
  ])('%s → %s', (id, words) => {
    expect(humanize(id)).toBe(words);
  });
});
