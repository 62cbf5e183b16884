/** The longest delay setTimeout takes (about 24.8 days); longer waits are re-armed when it fires. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The next time the clock shows `hour`:00 (local time) strictly after `now`. setHours works in
 * local time, so a day of 23 or 25 hours (daylight saving) still runs at the named hour.
 */
export function nextRunAt(now: Date, hour: number): Date {
  const next = new Date(now.getTime());
  next.setHours(hour, 0, 0, 0);
  if (next.getTime() <= now.getTime()) {
    next.setDate(next.getDate() + 1);
    next.setHours(hour, 0, 0, 0);
  }
  return next;
}

/**
 * A daily timer: `run` at `hour()` o'clock (null: disabled). `rearm` after the hour changes; `stop`
 * at shutdown. The timer is unref'd: a waiting backup does not keep the process alive.
 */
export function startDailySchedule(opts: { hour: () => number | null; run: () => void; now?: () => number }) {
  const now = opts.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let due: Date | null = null;
  let stopped = false;

  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    due = null;
    if (stopped) return;
    const hour = opts.hour();
    if (hour === null) return;
    due = nextRunAt(new Date(now()), hour);
    wait();
  }

  function wait(): void {
    if (!due) return;
    const delay = Math.min(Math.max(due.getTime() - now(), 0), MAX_TIMEOUT_MS);
    timer = setTimeout(fire, delay);
    timer.unref();
  }

  function fire(): void {
    timer = null;
    if (!due) return;
    // A capped wait (or a clock that moved) may wake early: wait on.
    if (now() < due.getTime()) return wait();
    opts.run();
    arm();
  }

  arm();
  return {
    rearm: arm,
    nextRunAt: () => due,
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
