import { useMemo } from 'react';
import { Bot } from 'lucide-react';
import type { AgentProcess, MetricSample } from '@nexus/agent/contract';
import { Progress } from '@/components/ui/progress';
import { formatBytes } from '@/lib/format-bytes';
import { formatDuration } from '@/lib/format-duration';
import { toChartPoints } from '../metrics-series';
import { CHART_POINT_BUDGET } from './metrics-charts';
import { Fact, Facts, Panel } from './panel';
import { CHART_COLORS, TimeSeriesChart } from './time-series-chart';

/** The agent's own footprint: what this console costs the hub. */
export function AgentCard({ agent, samples }: { agent: AgentProcess; samples: MetricSample[] }) {
  const points = useMemo(() => toChartPoints(samples, CHART_POINT_BUDGET), [samples]);
  const latest = samples.at(-1);
  const cpu = latest?.agentCpu ?? agent.cpuPercent;
  const rss = latest?.agentRss ?? agent.rss;
  const heapPercent = agent.heapTotal > 0 ? (agent.heapUsed / agent.heapTotal) * 100 : 0;
  return (
    <Panel title="Agent process" icon={Bot} description={`Nexus agent v${agent.version}, pid ${agent.pid}`}>
      <Facts>
        <Fact label="CPU">
          <span data-stat="Agent:CPU">{cpu.toFixed(1)}% of one core</span>
        </Fact>
        <Fact label="Resident memory">
          <span data-stat="Agent:RSS">{formatBytes(rss)}</span>
        </Fact>
        <Fact label="JS heap">
          {formatBytes(agent.heapUsed)} of {formatBytes(agent.heapTotal)}
        </Fact>
        <Fact label="Node.js">{agent.nodeVersion}</Fact>
        <Fact label="Running for">{formatDuration(agent.uptime)}</Fact>
      </Facts>
      <Progress value={heapPercent} aria-label={`JS heap ${Math.round(heapPercent)}% used`} />
      {points.length > 1 ? (
        <TimeSeriesChart
          data={points}
          series={[{ key: 'agentCpu', name: 'Agent CPU', color: CHART_COLORS[5] }]}
          format={(v) => `${v.toFixed(1)}%`}
          label={`The agent's CPU use: now ${cpu.toFixed(1)}% of one core`}
          height={120}
        />
      ) : null}
    </Panel>
  );
}
