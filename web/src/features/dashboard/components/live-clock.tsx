import { useEffect, useState } from 'react';

/** Spec §2: the dashboard's clock is updated every second. */
export const CLOCK_TICK_MS = 1_000;

/** The current time truncated to the whole second the clock shows. */
function currentSecond(): Date {
  const now = Date.now();
  return new Date(now - (now % CLOCK_TICK_MS));
}

export function LiveClock() {
  const [now, setNow] = useState(currentSecond);
  useEffect(() => {
    // Each tick is scheduled for the next whole second rather than every 1000 ms from mount, so the
    // seconds digit turns when the second does (a plain interval lags by up to a second and drifts).
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      setNow(currentSecond());
      timer = setTimeout(tick, CLOCK_TICK_MS - (Date.now() % CLOCK_TICK_MS));
    };
    timer = setTimeout(tick, CLOCK_TICK_MS - (Date.now() % CLOCK_TICK_MS));
    return () => clearTimeout(timer);
  }, []);

  return (
    // role="timer" is never announced on its own, so the ticking does not flood screen readers.
    <div role="timer" aria-label="Current time" className="text-right">
      <time
        dateTime={now.toISOString()}
        className="block text-2xl font-semibold tracking-tight tabular-nums"
        data-testid="dashboard-clock"
      >
        {now.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}
      </time>
      <span className="text-sm text-muted-foreground">
        {now.toLocaleDateString(undefined, {
          weekday: 'long',
          month: 'long',
          day: 'numeric',
          year: 'numeric',
        })}
      </span>
    </div>
  );
}
