import type { UseQueryResult } from '@tanstack/react-query';
import { Server } from 'lucide-react';
import type { NexusStatus } from '@nexus/agent/contract';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import { TONE_TEXT_CLASS } from '@/lib/status-words';
import { Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge, StatusText } from '@/components/status-badge';

export function NexusCard({ query }: { query: UseQueryResult<NexusStatus, Error> }) {
  return (
    <QueryCard
      title="Nexus"
      icon={Server}
      source="the Nexus hub"
      query={query}
      skeletonRows={4}
      badge={(nexus) => <StatusBadge word={nexus.status} />}
    >
      {(nexus) => (
        <>
          <Meter label="CPU load" percent={nexus.systemLoad} />
          <Meter label="Memory" percent={nexus.memoryUsage} />
          <Facts>
            <Fact label="Network">
              <StatusText word={nexus.networkStatus} />
            </Fact>
            {nexus.cpuTemperature !== null ? (
              <Fact label="CPU temperature">{nexus.cpuTemperature.toFixed(1)} °C</Fact>
            ) : null}
            <Fact label="Host">{nexus.hostname}</Fact>
          </Facts>
          {nexus.warnings.length > 0 ? (
            <ul className={cn('list-disc space-y-1 pl-5 text-xs', TONE_TEXT_CLASS.warning)}>
              {nexus.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </QueryCard>
  );
}

function Meter({ label, percent }: { label: string; percent: number }) {
  const rounded = Math.round(percent);
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between text-sm">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium tabular-nums" data-metric={label}>
          {rounded}%
        </span>
      </div>
      <Progress
        value={rounded}
        aria-label={`${label} ${rounded}%`}
        indicatorClassName={rounded >= 90 ? 'bg-destructive' : rounded >= 75 ? 'bg-warning' : undefined}
      />
    </div>
  );
}
