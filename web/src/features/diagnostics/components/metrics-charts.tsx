import { useMemo, type ReactNode } from 'react';
import { Cpu, HardDrive, MemoryStick, Network, Thermometer, type LucideIcon } from 'lucide-react';
import type { MetricSample } from '@nexus/agent/contract';
import { Skeleton } from '@/components/ui/skeleton';
import { formatBytes, formatRate, formatRateCompact } from '@/lib/format-bytes';
import { sensorNames, seriesStats, tempKey, toChartPoints, type ChartPoint } from '../metrics-series';
import { Panel } from './panel';
import { CHART_COLORS, TimeSeriesChart, type SeriesDef } from './time-series-chart';

/** Points per chart: enough for the shape of an hour, few enough to redraw every second. */
export const CHART_POINT_BUDGET = 240;

const percent = (value: number) => `${Math.round(value)}%`;
const celsius = (value: number) => `${value.toFixed(0)} °C`;

interface MetricsChartsProps {
  samples: MetricSample[];
  /** True until the first window has arrived. */
  loading: boolean;
  windowLabel: string;
}

/** CPU, memory, temperatures, network and disk traffic over the chosen window. */
export function MetricsCharts({ samples, loading, windowLabel }: MetricsChartsProps) {
  const points = useMemo(() => toChartPoints(samples, CHART_POINT_BUDGET), [samples]);
  const sensors = useMemo(() => sensorNames(samples), [samples]);
  const latest = samples.at(-1);

  const cpu = seriesStats(samples, (s) => s.cpu);
  const mem = seriesStats(samples, (s) => s.memPercent);
  const rx = seriesStats(samples, (s) => s.netRx);
  const tx = seriesStats(samples, (s) => s.netTx);
  const read = seriesStats(samples, (s) => s.diskRead);
  const write = seriesStats(samples, (s) => s.diskWrite);
  const hottest = latest
    ? Object.entries(latest.temps).reduce<[string, number] | null>(
        (best, entry) => (!best || entry[1] > best[1] ? entry : best),
        null,
      )
    : null;

  const tempSeries: SeriesDef[] = sensors.map((name, i) => ({
    key: tempKey(name),
    name,
    color: CHART_COLORS[i % CHART_COLORS.length]!,
  }));

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartPanel
        title="CPU"
        icon={Cpu}
        loading={loading}
        points={points}
        stats={
          cpu
            ? [
                ['Now', percent(cpu.now)],
                ['Average', percent(cpu.mean)],
                ['Peak', percent(cpu.peak)],
                ['Load', latest ? latest.load.map((l) => l.toFixed(2)).join(' · ') : '—'],
              ]
            : []
        }
        chart={
          <TimeSeriesChart
            kind="area"
            data={points}
            series={[{ key: 'cpu', name: 'CPU', color: CHART_COLORS[0] }]}
            format={percent}
            domain={[0, 100]}
            label={`CPU use over the ${windowLabel}${cpu ? `: now ${percent(cpu.now)}, peak ${percent(cpu.peak)}` : ''}`}
          />
        }
      />
      <ChartPanel
        title="Memory"
        icon={MemoryStick}
        loading={loading}
        points={points}
        stats={
          mem && latest
            ? [
                ['Now', percent(mem.now)],
                ['Used', `${formatBytes(latest.memUsed)} of ${formatBytes(latest.memTotal)}`],
                ['Peak', percent(mem.peak)],
                [
                  'Swap',
                  latest.swapTotal > 0
                    ? `${formatBytes(latest.swapUsed)} of ${formatBytes(latest.swapTotal)}`
                    : 'None',
                ],
              ]
            : []
        }
        chart={
          <TimeSeriesChart
            kind="area"
            data={points}
            series={[{ key: 'memPercent', name: 'Memory', color: CHART_COLORS[1] }]}
            format={percent}
            domain={[0, 100]}
            label={`Memory use over the ${windowLabel}${mem ? `: now ${percent(mem.now)}` : ''}`}
          />
        }
      />
      <ChartPanel
        title="Temperatures"
        icon={Thermometer}
        loading={loading}
        points={points}
        empty={
          sensors.length === 0
            ? 'This hardware reports no temperature sensors to the kernel, so there is nothing to draw. On a Jetson the thermal zones appear here.'
            : undefined
        }
        stats={
          hottest
            ? [
                ['Hottest', `${hottest[0]} ${celsius(hottest[1])}`],
                ['Sensors', String(sensors.length)],
              ]
            : []
        }
        chart={
          <TimeSeriesChart
            data={points}
            series={tempSeries}
            format={celsius}
            label={`Temperatures over the ${windowLabel}${hottest ? `: hottest ${hottest[0]} at ${celsius(hottest[1])}` : ''}`}
          />
        }
      />
      <ChartPanel
        title="Network"
        icon={Network}
        loading={loading}
        points={points}
        stats={
          rx && tx
            ? [
                ['Receiving', formatRate(rx.now)],
                ['Sending', formatRate(tx.now)],
                ['Peak in', formatRate(rx.peak)],
                ['Peak out', formatRate(tx.peak)],
              ]
            : []
        }
        chart={
          <TimeSeriesChart
            data={points}
            series={[
              { key: 'netRx', name: 'Received', color: CHART_COLORS[2] },
              { key: 'netTx', name: 'Sent', color: CHART_COLORS[0] },
            ]}
            format={formatRate}
            axisFormat={formatRateCompact}
            label={`Network traffic over the ${windowLabel}${rx && tx ? `: receiving ${formatRate(rx.now)}, sending ${formatRate(tx.now)}` : ''}`}
          />
        }
      />
      <ChartPanel
        title="Disk I/O"
        icon={HardDrive}
        loading={loading}
        points={points}
        className="lg:col-span-2"
        stats={
          read && write
            ? [
                ['Reading', formatRate(read.now)],
                ['Writing', formatRate(write.now)],
                ['Peak read', formatRate(read.peak)],
                ['Peak write', formatRate(write.peak)],
              ]
            : []
        }
        chart={
          <TimeSeriesChart
            data={points}
            series={[
              { key: 'diskRead', name: 'Read', color: CHART_COLORS[1] },
              { key: 'diskWrite', name: 'Write', color: CHART_COLORS[3] },
            ]}
            format={formatRate}
            axisFormat={formatRateCompact}
            label={`Disk traffic over the ${windowLabel}`}
            height={160}
          />
        }
      />
    </div>
  );
}

function ChartPanel({
  title,
  icon,
  loading,
  points,
  stats,
  chart,
  empty,
  className,
}: {
  title: string;
  icon: LucideIcon;
  loading: boolean;
  points: ChartPoint[];
  stats: [string, string][];
  chart: ReactNode;
  empty?: string;
  className?: string;
}) {
  return (
    <Panel title={title} icon={icon} className={className}>
      {loading ? (
        <>
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-[180px] w-full" />
        </>
      ) : empty ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">{empty}</p>
      ) : points.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No samples yet: the agent takes one every second, so the first appear within moments.
        </p>
      ) : (
        <>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
            {stats.map(([label, value]) => (
              <div key={label} className="flex gap-1.5">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-medium tabular-nums" data-stat={`${title}:${label}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {chart}
        </>
      )}
    </Panel>
  );
}
