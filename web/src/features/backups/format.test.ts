import { describe, expect, it } from 'vitest';
import { passphraseStrength } from '@/data/backups';
import { formatHour, newestFirst } from './format';
import { passphraseProblem } from './components/passphrase-fields';

describe('backups: formatting and passphrase checks', () => {
  it('lists the newest backup first whatever order the agent sent', () => {
    const list = [
      { id: 'a', createdAt: '2025-01-02T03:00:00.000Z' },
      { id: 'c', createdAt: '2025-03-01T03:00:00.000Z' },
      { id: 'b', createdAt: '2025-02-01T03:00:00.000Z' },
    ];
    expect(newestFirst(list).map((b) => b.id)).toEqual(['c', 'b', 'a']);
  });

  it('shows hours as HH:00', () => {
    expect(formatHour(3)).toBe('03:00');
    expect(formatHour(23)).toBe('23:00');
  });

  it('refuses a short passphrase and two that differ, as the agent would', () => {
    expect(passphraseProblem({ passphrase: 'short', confirm: 'short' })).toMatch(/at least 10/);
    expect(passphraseProblem({ passphrase: 'long enough pass', confirm: 'long enough pas' })).toMatch(
      /do not match/,
    );
    expect(passphraseProblem({ passphrase: 'long enough pass', confirm: 'long enough pass' })).toBeNull();
  });

  it('rates length above symbols, and repeated characters low', () => {
    expect(passphraseStrength('abc').level).toBe(0);
    expect(passphraseStrength('aaaaaaaaaaaaaaaaaaaaaaaa').level).toBe(1);
    expect(passphraseStrength('Tr0ub4dor&3x').level).toBe(2);
    expect(passphraseStrength('correct horse battery staple').level).toBe(3);
  });
});
