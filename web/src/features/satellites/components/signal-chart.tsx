import { useQuery } from '@tanstack/react-query';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { RefreshError } from '@/components/load-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';
import { satelliteSignalQueryOptions } from '@/data/satellites';
import { axisUnit } from '@/lib/chart-axis';

const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };
const hourMinute = (t: number) =>
  new Date(t).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * One satellite's signal over the last 24 h (GET /:id/signal), drawn with the project's chart
 * library. It fetches when it is first shown, so the fleet table's first paint asks for none.
 */
export function SignalChart({ id, name, height = 140 }: { id: number; name: string; height?: number }) {
  const history = useQuery(satelliteSignalQueryOptions(id));

  if (history.isPending) {
    return (
      <div role="status" className="grid gap-1">
        <span className="sr-only">Loading the signal history of {name}</span>
        <Skeleton className="w-full" style={{ height }} />
      </div>
    );
  }
  if (history.isLoadingError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load the signal history: {errorMessage(history.error)}
      </p>
    );
  }
  const { points, from, to } = history.data;
  // A failed refresh (it polls every minute) keeps the last readings, with a word that they are old.
  const stale = <RefreshError what="the signal history" query={history} />;
  if (points.length === 0) {
    return (
      <div className="grid grid-cols-1 gap-2">
        {stale}
        <p className="text-sm text-muted-foreground" data-testid="signal-empty">
          No signal readings in the last 24 hours.
        </p>
      </div>
    );
  }
  const values = points.map((p) => p.dbm);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const latest = points[points.length - 1]!;
  return (
    <div className="grid grid-cols-1 gap-2">
      {stale}
      <figure className="grid gap-1">
        <div
          role="img"
          aria-label={`Signal of ${name} over the last 24 hours: ${points.length} readings between ${low} and ${high} dBm, latest ${latest.dbm} dBm`}
          style={{ height }}
          className="w-full"
          data-chart-points={points.length}
        >
          <LineChart
            data={points}
            responsive
            style={{ width: '100%', height: '100%' }}
            margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={[from, to]}
              tickFormatter={hourMinute}
              tick={axisTick}
              stroke="var(--color-border)"
              minTickGap={40}
              {...axisUnit('x', 'time')}
            />
            <YAxis
              dataKey="dbm"
              // dBm are negative; a little room above and below keeps a flat line off the edges.
              domain={[
                (min: number) => Math.floor(min - 5),
                (max: number) => Math.min(0, Math.ceil(max + 5)),
              ]}
              tickFormatter={(v: number) => `${v}`}
              tick={axisTick}
              stroke="var(--color-border)"
              width={48}
              allowDecimals={false}
              {...axisUnit('y', 'dBm')}
            />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(t) => new Date(Number(t)).toLocaleString()}
              formatter={(value) => [`${String(value)} dBm`, 'Signal']}
              contentStyle={{
                background: 'var(--color-popover)',
                border: '1px solid var(--color-border)',
                borderRadius: 8,
                color: 'var(--color-popover-foreground)',
                fontSize: 12,
              }}
              labelStyle={{ color: 'var(--color-muted-foreground)' }}
            />
            <Line
              type="monotone"
              dataKey="dbm"
              name="Signal"
              stroke="var(--color-primary)"
              strokeWidth={1.5}
              dot={points.length < 3}
              isAnimationActive={false}
            />
          </LineChart>
        </div>
        <figcaption className="text-xs text-muted-foreground">
          dBm over the last 24 hours; nearer 0 is stronger.
        </figcaption>
      </figure>
    </div>
  );
}
