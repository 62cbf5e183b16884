import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextRunAt, startDailySchedule } from './backup-schedule.js';

afterEach(() => vi.useRealTimers());

describe('the daily backup schedule', () => {
  it('runs at the next hour:00 strictly after now', () => {
    const at = (s: string) => new Date(s);
    expect(nextRunAt(at('2026-11-25T02:59:59'), 3)).toEqual(at('2026-11-25T03:00:00'));
    expect(nextRunAt(at('2026-11-25T03:00:00'), 3)).toEqual(at('2026-11-26T03:00:00'));
    expect(nextRunAt(at('2026-11-25T23:30:00'), 0)).toEqual(at('2026-11-26T00:00:00'));
    expect(nextRunAt(at('2026-12-31T22:00:00'), 3)).toEqual(at('2027-01-01T03:00:00'));
  });

  it('fires once a day with a fake clock, follows a new hour, and stops', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-25T01:00:00'));
    let hour: number | null = 3;
    const runs: string[] = [];
    const schedule = startDailySchedule({ hour: () => hour, run: () => runs.push(new Date().toISOString()) });
    vi.advanceTimersByTime(2 * 3600_000 - 1);
    expect(runs).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual([new Date('2026-11-25T03:00:00').toISOString()]);
    vi.advanceTimersByTime(24 * 3600_000);
    expect(runs).toHaveLength(2);
    hour = 5;
    schedule.rearm();
    expect(schedule.nextRunAt()).toEqual(new Date('2026-11-26T05:00:00'));
    hour = null;
    schedule.rearm();
    expect(schedule.nextRunAt()).toBeNull();
    vi.advanceTimersByTime(3 * 24 * 3600_000);
    expect(runs).toHaveLength(2);
    hour = 3;
    schedule.stop();
    schedule.rearm();
    vi.advanceTimersByTime(3 * 24 * 3600_000);
    expect(runs).toHaveLength(2);
  });
});
