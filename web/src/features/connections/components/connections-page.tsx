import { Fact } from '@/components/fact-list';
import { useQuery } from '@tanstack/react-query';
import { History, ShieldCheck } from 'lucide-react';
import type { VpnEvent, VpnProvider } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { StatusPill } from '@/components/ui/status-pill';
import { useAuth } from '@/features/auth';
import { isForbidden, vpnEventsQueryOptions, vpnStatusQueryOptions } from '@/data/vpn';
import { PeersPanel } from './peers-panel';
import { ServerPanel } from './server-panel';
import { Empty, Latency, LoadError, Loading, formatTime } from './shared';
import { UplinksPanel } from './uplinks-panel';
import { pageContainer } from '@/components/page-container';

export const PROVIDER_LABELS: Record<VpnProvider, string> = {
  wireguard: 'WireGuard',
  tailscale: 'Tailscale',
  none: 'None',
};

/** /connections: the hub's VPN — its status, its WireGuard server and devices, the uplinks and their failover. */
export function ConnectionsPage() {
  const { isAdmin } = useAuth();
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">VPN Connections</h1>
        <p className="text-muted-foreground">
          Reach the hub from outside your home over WireGuard, and keep its own tunnels to your VPN provider
          up with a backup that takes over when the primary fails.
        </p>
      </header>
      <StatusPanel />
      {isAdmin ? (
        <>
          <ServerPanel />
          <PeersPanel canEdit />
          <UplinksPanel />
          <EventsPanel />
        </>
      ) : (
        <Empty>
          An admin sets up the hub&apos;s WireGuard server, its devices and its uplinks; the agent shows them
          to admins only. Ask an admin to add your phone.
        </Empty>
      )}
    </div>
  );
}

function StatusPanel() {
  const status = useQuery(vpnStatusQueryOptions());
  const vpn = status.data;
  return (
    <Panel
      title="VPN status"
      icon={ShieldCheck}
      description="What the hub's tunnels report now; checked every 15 seconds."
      actions={
        vpn ? (
          <StatusPill tone={vpn.status === 'connected' ? 'good' : 'bad'} data-testid="vpn-status">
            {vpn.status === 'connected' ? 'Connected' : 'Disconnected'}
          </StatusPill>
        ) : null
      }
    >
      {vpn ? (
        <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <Fact layout="stacked" label="Provider">
            {PROVIDER_LABELS[vpn.provider]}
          </Fact>
          <Fact layout="stacked" label="Latency">
            <Latency ms={vpn.latency} />
          </Fact>
          <Fact layout="stacked" label="Failover">
            {PROVIDER_LABELS[vpn.failover.activeProvider]} → {PROVIDER_LABELS[vpn.failover.backupProvider]}
          </Fact>
          <Fact layout="stacked" label="Checked">
            {new Date(vpn.checkedAt).toLocaleTimeString()}
          </Fact>
        </dl>
      ) : status.error ? (
        <LoadError what="the VPN status" error={status.error} />
      ) : (
        <Loading label="Loading the VPN status" />
      )}
      {vpn && vpn.provider === 'none' && vpn.status === 'disconnected' ? (
        <Empty>
          No VPN is up. Set up the hub&apos;s WireGuard server below to reach it from your phone, or run
          Tailscale on the hub.
        </Empty>
      ) : null}
    </Panel>
  );
}

const EVENT_LABELS: Record<VpnEvent['kind'], string> = {
  failover: 'Failover',
  failback: 'Failback',
  'uplink-down': 'Uplink down',
  'uplink-up': 'Uplink up',
  'server-started': 'Server started',
  'server-stopped': 'Server stopped',
};

function EventsPanel() {
  const events = useQuery(vpnEventsQueryOptions());
  return (
    <Panel title="Events" icon={History} description="Every switch between the uplinks, newest first.">
      {events.data ? (
        events.data.length ? (
          <ol aria-label="VPN events" className="divide-y rounded-lg border">
            {events.data.map((event) => (
              <li key={event.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 p-3 text-sm">
                <time dateTime={event.at} className="text-muted-foreground tabular-nums">
                  {formatTime(event.at)}
                </time>
                <Badge
                  variant={
                    event.kind === 'failover' || event.kind === 'uplink-down' ? 'destructive' : 'secondary'
                  }
                >
                  {EVENT_LABELS[event.kind]}
                </Badge>
                {event.from || event.to ? (
                  <span>
                    {event.from ?? '—'} → {event.to ?? '—'}
                  </span>
                ) : null}
                <span className="text-muted-foreground">{event.detail}</span>
              </li>
            ))}
          </ol>
        ) : (
          <Empty>
            No switch yet. When the primary uplink fails, the change to the backup is listed here.
          </Empty>
        )
      ) : events.error ? (
        isForbidden(events.error) ? (
          <Empty>Only admins can see the VPN events.</Empty>
        ) : (
          <LoadError what="the VPN events" error={events.error} />
        )
      ) : (
        <Loading label="Loading the VPN events" />
      )}
    </Panel>
  );
}
