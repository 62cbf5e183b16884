import type { UseQueryResult } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import type { Health, NexusStatus } from '@nexus/agent/contract';
import { Skeleton } from '@/components/ui/skeleton';
import { Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge } from '@/components/status-badge';

/** Spec §2: Platform Info shows the version (v1.0.1-alpha, the agent's own) and status Ready. */
export function PlatformInfoCard({
  health,
  nexus,
}: {
  health: UseQueryResult<Health, Error>;
  nexus: UseQueryResult<NexusStatus, Error>;
}) {
  return (
    <QueryCard
      title="Platform Info"
      icon={Info}
      source="the agent"
      query={health}
      skeletonRows={3}
      badge={() => <StatusBadge word="Ready" tone="good" />}
    >
      {(info) => (
        <Facts>
          <Fact label="Version">v{info.version}</Fact>
          <Fact label="Status">
            <span className="text-success">Ready</span>
          </Fact>
          <Fact label="Hub">
            {nexus.data ? (
              nexus.data.hostname
            ) : nexus.error ? (
              '—'
            ) : (
              <Skeleton className="inline-block h-4 w-20" />
            )}
          </Fact>
        </Facts>
      )}
    </QueryCard>
  );
}
