import { Suspense, useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Activity, CheckCircle2, CircleAlert, XCircle } from 'lucide-react';
import type {
  HaHealth,
  LlmPipelineStatus,
  NexusStatus,
  SystemUptime,
  VpnStatus,
} from '@nexus/agent/contract';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { lazyComponent } from '@/lib/lazy-code';
import { useLiveTopic } from '@/lib/live';
import { coreServices, formatUptime, networkProtection, overallHealth } from '../dashboard-logic';
import { statusLabel } from '@/lib/status-words';
import { DashboardCard, Fact, Facts } from './dashboard-card';
import { StatusBadge } from '@/components/status-badge';

interface SystemHealthCardProps {
  nexus: UseQueryResult<NexusStatus, Error>;
  ha: UseQueryResult<HaHealth, Error>;
  llm: UseQueryResult<LlmPipelineStatus, Error>;
  vpn: UseQueryResult<VpnStatus, Error>;
  uptime: UseQueryResult<SystemUptime, Error>;
  signedIn: boolean;
}

/** A call has settled once it answered or failed; until then its service's state is not known. */
const settled = (query: UseQueryResult<unknown, Error>) => query.data !== undefined || query.error !== null;

export function SystemHealthCard({ nexus, ha, llm, vpn, uptime, signedIn }: SystemHealthCardProps) {
  const healthKnown = settled(nexus) && settled(ha);
  const health = overallHealth(nexus.data, ha.data);
  const core = coreServices(nexus.data, ha.data, llm.data);
  return (
    <DashboardCard
      title="System Health"
      icon={Activity}
      badge={
        healthKnown ? (
          <StatusBadge word={health} tone={health === 'Healthy' ? 'good' : 'warning'} />
        ) : (
          <Skeleton className="h-5 w-16" />
        )
      }
    >
      <div className="grid gap-1.5">
        <div className="flex items-center justify-between text-sm">
          <span className="text-muted-foreground">Core services</span>
          {settled(nexus) && settled(ha) && settled(llm) ? (
            <span className="font-medium tabular-nums" data-testid="core-services">
              {core.up}/{core.total}
            </span>
          ) : (
            <Skeleton className="h-4 w-8" />
          )}
        </div>
        <Progress
          value={core.up}
          max={core.total}
          aria-label={`Core services up: ${core.up} of ${core.total}`}
        />
        <ul className="mt-1 grid gap-1 text-sm">
          {core.services.map((service) => (
            <li key={service.name} className="flex items-center gap-2">
              {service.up ? (
                <CheckCircle2 aria-hidden="true" className="size-4 text-success" />
              ) : service.status === undefined ? (
                <CircleAlert aria-hidden="true" className="size-4 text-muted-foreground" />
              ) : (
                <XCircle aria-hidden="true" className="size-4 text-destructive" />
              )}
              <span>{service.name}</span>
              <span className="ml-auto text-xs text-muted-foreground">
                {service.status ? statusLabel(service.status) : 'Unknown'}
                <span className="sr-only">{service.up ? ' (up)' : ' (down)'}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <Facts>
        <Fact label="Network">
          {settled(vpn) ? (
            <span
              className={
                networkProtection(vpn.data) === 'Protected' ? 'text-success' : 'text-muted-foreground'
              }
            >
              {networkProtection(vpn.data)}
            </span>
          ) : (
            <Skeleton className="inline-block h-4 w-16" />
          )}
        </Fact>
        <Fact label="Uptime">
          {uptime.data ? (
            <span data-uptime-seconds={uptime.data.uptime}>{formatUptime(uptime.data.uptime)}</span>
          ) : uptime.error ? (
            <span className="text-destructive">Unavailable</span>
          ) : (
            <Skeleton className="inline-block h-4 w-16" />
          )}
        </Fact>
      </Facts>
      <CpuSparkline signedIn={signedIn} />
    </DashboardCard>
  );
}

const CpuAreaChart = lazyComponent(async () => (await import('./cpu-area-chart')).default).Component;

/** Seconds of live CPU history the sparkline keeps. */
const SPARKLINE_SECONDS = 60;

function CpuSparkline({ signedIn }: { signedIn: boolean }) {
  const [points, setPoints] = useState<{ t: number; cpu: number }[]>([]);
  const live = useLiveTopic('metrics', {
    enabled: signedIn,
    onEvent: (sample) =>
      setPoints((prev) => {
        if (prev.length > 0 && prev[prev.length - 1]!.t >= sample.t) return prev;
        return [...prev, { t: sample.t, cpu: sample.cpu }].slice(-SPARKLINE_SECONDS);
      }),
  });
  const latest = points.at(-1);
  return (
    <div className="mt-auto grid gap-1">
      <div className="flex items-center justify-between text-sm">
        <span className="text-muted-foreground">Live CPU</span>
        <span className="font-medium tabular-nums" data-testid="live-cpu">
          {latest ? `${Math.round(latest.cpu)}%` : live.error ? '—' : '…'}
        </span>
      </div>
      {points.length > 1 ? (
        <div role="img" aria-label={`CPU over the last ${points.length} seconds`} className="h-12 w-full">
          <Suspense fallback={<Skeleton className="h-12 w-full" />}>
            <CpuAreaChart points={points} />
          </Suspense>
        </div>
      ) : (
        <Skeleton className="h-12 w-full" />
      )}
      {live.error ? (
        <p className="text-xs text-muted-foreground">Live metrics unavailable: {live.error}</p>
      ) : null}
    </div>
  );
}
