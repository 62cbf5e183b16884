import { Area, AreaChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from '../metrics-series';
import { axisUnit } from '@/lib/chart-axis';

export interface SeriesDef {
  key: Exclude<keyof ChartPoint, number>;
  name: string;
  color: string;
}

interface TimeSeriesChartProps {
  data: ChartPoint[];
  series: SeriesDef[];
  /** Formats a value for the tooltip (and the axis, unless `axisFormat` is given). */
  format: (value: number) => string;
  /** A shorter form for the value axis, e.g. "1.8K" for a rate. */
  axisFormat?: (value: number) => string;
  /** Fixed value range (e.g. [0, 100] for percentages); otherwise the data's. */
  domain?: [number, number];
  kind?: 'area' | 'line';
  /** What screen readers hear in place of the drawing. */
  label: string;
  height?: number;
}

/** Chart colours: the theme's tokens first, then hues that read on both backgrounds. */
export const CHART_COLORS = [
  'var(--color-primary)',
  'oklch(0.66 0.15 200)',
  'var(--color-success)',
  'var(--color-warning)',
  'var(--color-destructive)',
  'oklch(0.64 0.18 320)',
  'oklch(0.6 0.12 250)',
  'oklch(0.7 0.13 110)',
] as const;

/** Ticks name the minute, or the second when the chart spans only a few minutes (a hub just started). */
function timeTickFormatter(data: readonly { t: number }[]) {
  const span = data.length > 1 ? data[data.length - 1]!.t - data[0]!.t : 0;
  const options: Intl.DateTimeFormatOptions =
    span < 10 * 60_000
      ? { hour: '2-digit', minute: '2-digit', second: '2-digit' }
      : { hour: '2-digit', minute: '2-digit' };
  return (t: number) => new Date(t).toLocaleTimeString(undefined, options);
}

const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };

/**
 * A time series drawn with recharts: time along the bottom, one line or area per series.
 * Animations are off because the data moves every second; the tooltip follows the pointer.
 */
export function TimeSeriesChart({
  data,
  series,
  format,
  axisFormat,
  domain,
  kind = 'line',
  label,
  height = 180,
}: TimeSeriesChartProps) {
  const Chart = kind === 'area' ? AreaChart : LineChart;
  // recharts types dataKey from the rows' declared keys; temperature keys are dynamic, so rows are plain records here.
  const rows = data as unknown as Record<string, number | undefined>[];
  return (
    <div role="img" aria-label={label} style={{ height }} className="w-full" data-chart-points={data.length}>
      <Chart
        data={rows}
        responsive
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="t"
          type="number"
          scale="time"
          domain={['dataMin', 'dataMax']}
          tickFormatter={timeTickFormatter(data)}
          tick={axisTick}
          stroke="var(--color-border)"
          minTickGap={40}
          {...axisUnit('x', 'time')}
        />
        <YAxis
          domain={domain ?? [0, 'auto']}
          tickFormatter={axisFormat ?? format}
          tick={axisTick}
          stroke="var(--color-border)"
          width={56}
          allowDecimals={false}
        />
        <Tooltip
          isAnimationActive={false}
          labelFormatter={(t) => new Date(Number(t)).toLocaleTimeString()}
          formatter={(value) => (typeof value === 'number' ? format(value) : String(value))}
          contentStyle={{
            background: 'var(--color-popover)',
            border: '1px solid var(--color-border)',
            borderRadius: 8,
            color: 'var(--color-popover-foreground)',
            fontSize: 12,
          }}
          labelStyle={{ color: 'var(--color-muted-foreground)' }}
        />
        {series.length > 1 ? <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} /> : null}
        {series.map((s) =>
          kind === 'area' ? (
            <Area
              key={s.key}
              type="monotone"
              dataKey={s.key as string}
              name={s.name}
              stroke={s.color}
              fill={s.color}
              fillOpacity={0.15}
              strokeWidth={1.5}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ) : (
            <Line
              key={s.key}
              type="monotone"
              dataKey={s.key as string}
              name={s.name}
              stroke={s.color}
              strokeWidth={1.5}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ),
        )}
      </Chart>
    </div>
  );
}
