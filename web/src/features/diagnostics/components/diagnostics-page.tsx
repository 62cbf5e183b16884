import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Server } from 'lucide-react';
import {
  METRIC_WINDOW_CAPACITY,
  METRIC_WINDOW_INTERVAL_MS,
  metricSampleSchema,
  type MetricSample,
  type MetricWindow,
} from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { StatusPill } from '@/components/ui/status-pill';
import { useAuth } from '@/features/auth';
import { useLiveTopic, type LiveConnectionState } from '@/lib/live';
import { metricSeriesQueryOptions, systemInfoQueryOptions } from '@/data/diagnostics';
import { appendLive, mergeSamples } from '../metrics-series';
import { AgentCard } from './agent-card';
import { BundleButton } from './bundle-button';
import { DisksCard } from './disks-card';
import { HostCard } from './host-card';
import { MetricsCharts } from './metrics-charts';
import { Panel } from './panel';
import { ProcessesCard } from './processes-card';
import { QueryError, RowsSkeleton } from './query-state';
import { pageContainer } from '@/components/page-container';

const WINDOW_LABELS: Record<MetricWindow, { button: string; prose: string }> = {
  '1h': { button: 'Last hour', prose: 'last hour' },
  '24h': { button: 'Last 24 hours', prose: 'last 24 hours' },
};

const windowMs = (window: MetricWindow) => METRIC_WINDOW_CAPACITY[window] * METRIC_WINDOW_INTERVAL_MS[window];

/**
 * The diagnostics screen (/system-diagnostics, /system-updates, /nexus-status, /admin-diagnostics):
 * the hub's live figures over a chosen window, its disks and busiest processes, the agent's own
 * footprint, and for admins a downloadable diagnostics bundle.
 */
export function DiagnosticsPage() {
  const { user, isAdmin } = useAuth();
  const [window, setWindow] = useState<MetricWindow>('1h');
  const [live, setLive] = useState<MetricSample[]>([]);

  const info = useQuery(systemInfoQueryOptions());
  const series = useQuery(metricSeriesQueryOptions(window));
  const liveTopic = useLiveTopic('metrics', {
    enabled: user !== null,
    onEvent: (data) => {
      const parsed = metricSampleSchema.safeParse(data);
      if (parsed.success) setLive((prev) => appendLive(prev, parsed.data, METRIC_WINDOW_CAPACITY['1h']));
    },
  });

  // The hour window moves with every live sample; the day window is minute means and moves with its refetch.
  const samples = useMemo(
    () => mergeSamples(series.data?.samples ?? [], window === '1h' ? live : [], windowMs(window)),
    [series.data, live, window],
  );
  const agentSamples = useMemo(
    () => mergeSamples(series.data?.samples ?? [], live, windowMs('1h')),
    [series.data, live],
  );

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">System Diagnostics</h1>
            <LiveBadge state={liveTopic.state} error={liveTopic.error} />
          </div>
          <p className="text-muted-foreground">
            What the hub is doing right now: processor, memory, temperatures, network, disks and processes.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <div role="group" aria-label="Time window" className="flex gap-1 rounded-lg bg-muted p-1">
            {(Object.keys(WINDOW_LABELS) as MetricWindow[]).map((key) => (
              <Button
                key={key}
                size="sm"
                variant={window === key ? 'outline' : 'ghost'}
                aria-pressed={window === key}
                className="h-7"
                onClick={() => setWindow(key)}
              >
                {WINDOW_LABELS[key].button}
              </Button>
            ))}
          </div>
          {isAdmin ? <BundleButton /> : null}
        </div>
      </header>

      {series.error && !series.data ? (
        <Panel title="Metrics" icon={Server}>
          <QueryError
            what="the metrics history"
            error={series.error}
            onRetry={() => void series.refetch()}
            retrying={series.isFetching}
          />
        </Panel>
      ) : (
        <MetricsCharts
          samples={samples}
          loading={series.isPending}
          windowLabel={WINDOW_LABELS[window].prose}
        />
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        {info.data ? (
          <>
            <HostCard info={info.data} />
            <AgentCard agent={info.data.agent} samples={agentSamples} />
            <DisksCard disks={info.data.disks} sampledAt={info.data.disksSampledAt} />
          </>
        ) : (
          <Panel title="Host" icon={Server}>
            {info.error ? (
              <QueryError
                what="the host's details"
                error={info.error}
                onRetry={() => void info.refetch()}
                retrying={info.isFetching}
              />
            ) : (
              <RowsSkeleton rows={6} />
            )}
          </Panel>
        )}
        <ProcessesCard />
      </div>
    </div>
  );
}

function LiveBadge({ state, error }: { state: LiveConnectionState; error: string | undefined }) {
  if (error) return <StatusPill tone="warning">Live updates unavailable</StatusPill>;
  if (state === 'open') {
    return (
      <StatusPill tone="good" pulse>
        Live
      </StatusPill>
    );
  }
  if (state === 'reconnecting') return <StatusPill tone="warning">Reconnecting…</StatusPill>;
  return <StatusPill tone="neutral">Connecting…</StatusPill>;
}
