import { useState } from 'react';
import { CalendarDays } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { useTimeline } from '@/data/analytics';
import { useNow } from '@/features/home-assistant/components/entities-page';
import { cn } from '@/lib/utils';
import {
  clockIn,
  dateIn,
  stateTone,
  timelineEnd,
  timelineSegments,
  type StateTone,
} from '../analytics-logic';
import { Empty, Loading } from './shared';
import { LoadError } from '@/components/load-state';

const TONE_CLASS: Record<StateTone, string> = {
  active: 'bg-primary',
  idle: 'bg-muted-foreground/25',
  unknown: 'bg-destructive/30',
};
const TICKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

/** One day, each entity's states on a 24-hour axis. */
export function TimelinePanel() {
  // The clock moves the end of today's bars and the latest day that can be picked.
  const now = useNow(60_000);
  const [date, setDate] = useState(() => dateIn(now, Intl.DateTimeFormat().resolvedOptions().timeZone));
  const timeline = useTimeline(date);
  const data = timeline.data;
  const end = data ? timelineEnd(data.date, now, data.timeZone) : 1440;

  return (
    <Panel
      title="Day timeline"
      icon={CalendarDays}
      description="What changed when on one day; dark stretches are on, open or home."
      actions={
        <div className="grid gap-1">
          <Label htmlFor="timeline-date">Day</Label>
          <Input
            id="timeline-date"
            type="date"
            value={date}
            max={dateIn(now, data?.timeZone ?? '')}
            onChange={(e) => setDate(e.target.value)}
            className="w-44"
          />
        </div>
      }
    >
      {data ? (
        data.entities.length ? (
          <div className="grid gap-2" data-testid="analytics-timeline">
            <div
              className="grid grid-cols-[10rem_minmax(0,1fr)] gap-3 text-xs text-muted-foreground"
              aria-hidden="true"
            >
              <span>{data.timeZone}</span>
              <div className="relative h-4">
                {TICKS.map((h) => (
                  <span
                    key={h}
                    className="absolute -translate-x-1/2 tabular-nums first:translate-x-0 last:-translate-x-full"
                    style={{ left: `${(h / 24) * 100}%` }}
                  >
                    {String(h).padStart(2, '0')}
                  </span>
                ))}
              </div>
            </div>
            <ul aria-label={`Changes on ${data.date}`} className="grid gap-1.5">
              {data.entities.map((entity) => {
                const segments = timelineSegments(entity.changes, data.timeZone, end);
                return (
                  <li
                    key={entity.entityId}
                    className="grid grid-cols-[10rem_minmax(0,1fr)] items-center gap-3 text-sm"
                  >
                    <span className="truncate" title={entity.entityId}>
                      {entity.name}
                    </span>
                    <div className="relative h-5 overflow-hidden rounded-sm bg-muted" aria-hidden="true">
                      {TICKS.slice(1, -1).map((h) => (
                        <span
                          key={h}
                          className="absolute inset-y-0 w-px bg-border"
                          style={{ left: `${(h / 24) * 100}%` }}
                        />
                      ))}
                      {segments.map((s, i) => (
                        <span
                          key={i}
                          title={`${s.state} from ${minutesClock(s.start)} to ${minutesClock(s.end)}`}
                          className={cn('absolute inset-y-0', TONE_CLASS[stateTone(s.state)])}
                          style={{
                            left: `${(s.start / 1440) * 100}%`,
                            width: `${((s.end - s.start) / 1440) * 100}%`,
                          }}
                        />
                      ))}
                    </div>
                    <p className="sr-only">
                      {entity.changes.length
                        ? entity.changes.map((c) => `${clockIn(c.at, data.timeZone)} ${c.state}`).join(', ')
                        : 'No change'}
                    </p>
                  </li>
                );
              })}
            </ul>
          </div>
        ) : (
          <Empty>No change recorded on {data.date}. Pick another day, or wait for history to be read.</Empty>
        )
      ) : timeline.error ? (
        <LoadError what="the timeline" query={timeline} />
      ) : (
        <Loading label="Loading the timeline" />
      )}
    </Panel>
  );
}

const minutesClock = (m: number) => {
  const whole = Math.min(1440, Math.round(m));
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
};
