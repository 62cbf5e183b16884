import type { UseQueryResult } from '@tanstack/react-query';
import { ShieldCheck, TriangleAlert } from 'lucide-react';
import type { VpnProvider, VpnStatus } from '@nexus/agent/contract';
import { cn } from '@/lib/utils';
import { isVpnLatencyFlagged } from '../dashboard-logic';
import { TONE_TEXT_CLASS } from '@/lib/status-words';
import { CardEmpty, Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge } from '@/components/status-badge';

const PROVIDER_LABELS: Record<VpnProvider, string> = {
  wireguard: 'WireGuard',
  tailscale: 'Tailscale',
  none: 'None',
};

export function VpnCard({ query }: { query: UseQueryResult<VpnStatus, Error> }) {
  return (
    <QueryCard
      title="VPN"
      icon={ShieldCheck}
      source="the VPN status"
      query={query}
      skeletonRows={4}
      badge={(vpn) => <StatusBadge word={vpn.status} />}
    >
      {(vpn) =>
        vpn.provider === 'none' && vpn.status === 'disconnected' ? (
          <CardEmpty title="No VPN set up" action={{ label: 'Set up a VPN', href: '/connections' }}>
            Connect WireGuard or Tailscale to reach the hub safely from outside your home.
          </CardEmpty>
        ) : (
          <Facts>
            <Fact label="Provider">{PROVIDER_LABELS[vpn.provider]}</Fact>
            <Fact label="Latency">
              <Latency ms={vpn.latency} />
            </Fact>
            <Fact label="Failover">
              {PROVIDER_LABELS[vpn.failover.activeProvider]} → {PROVIDER_LABELS[vpn.failover.backupProvider]}
            </Fact>
          </Facts>
        )
      }
    </QueryCard>
  );
}

function Latency({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="text-muted-foreground">Not measured</span>;
  if (!isVpnLatencyFlagged(ms)) return <span>{Math.round(ms)} ms</span>;
  return (
    <span className={cn('inline-flex items-center gap-1', TONE_TEXT_CLASS.warning)} data-flagged="true">
      <TriangleAlert aria-hidden="true" className="size-3.5" />
      {Math.round(ms)} ms<span className="sr-only"> (high latency)</span>
    </span>
  );
}
