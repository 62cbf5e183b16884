import { useEffect, useState } from 'react';

/** Spec §2: the dashboard's clock is updated every second. */
export const CLOCK_TICK_MS = 1_000;

/** The current time truncated to the whole second the clock shows. */
function currentSecond(): Date {
  const now = Date.now();
  return new Date(now - (now % CLOCK_TICK_MS));
}

/**
 * Made once, on the first tick: building a date format is the browser's first use of its locale
 * data (about 15 ms of CPU, 60 ms on a slowed phone), and toLocaleTimeString would build one on
 * every call.
 */
let formats: { time: Intl.DateTimeFormat; date: Intl.DateTimeFormat } | null = null;
function clockFormats() {
  formats ??= {
    time: new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    date: new Intl.DateTimeFormat(undefined, {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    }),
  };
  return formats;
}

export function LiveClock() {
  // Null until the first tick, which comes after the dashboard's first paint (a frame, then a
  // task): the browser paints the hub's figures first and loads the clock's locale data after
  // them (issue 26).
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    // Each tick is scheduled for the next whole second rather than every 1000 ms from mount, so the
    // seconds digit turns when the second does (a plain interval lags by up to a second and drifts).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      setNow(currentSecond());
      timer = setTimeout(tick, CLOCK_TICK_MS - (Date.now() % CLOCK_TICK_MS));
    };
    const frame = requestAnimationFrame(() => (timer = setTimeout(tick, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);

  const format = now && clockFormats();
  return (
    // role="timer" is never announced on its own, so the ticking does not flood screen readers.
    <div role="timer" aria-label="Current time" className="text-right">
      {/* The lines keep their height while empty, so nothing moves when the time arrives. */}
      <time
        dateTime={now?.toISOString()}
        className="block min-h-8 text-2xl font-semibold tracking-tight tabular-nums"
        data-testid="dashboard-clock"
      >
        {now && format?.time.format(now)}
      </time>
      <span className="block min-h-5 text-sm text-muted-foreground">{now && format?.date.format(now)}</span>
    </div>
  );
}
