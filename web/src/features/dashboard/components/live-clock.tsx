import { useEffect, useState } from 'react';

/** Spec §2: the dashboard's clock is updated every second. */
export const CLOCK_TICK_MS = 1_000;

export function LiveClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
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
