import { type ReactNode } from 'react';
import { Panel } from '@/components/ui/panel';
import { AlertCircle, Cable, Globe, Network, RefreshCw, Router, Wifi } from 'lucide-react';
import type {
  ListeningPort,
  NetworkInterface,
  NetworkPage,
  TailscaleInfo,
  WifiLink,
} from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatRate } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import { signalWords, sortInterfaces, useNetworkInfo } from '@/data/network';
import { HttpsSection } from './https-section';
import { pageContainer } from '@/components/page-container';

/**
 * /network-info: the hub's interfaces and addresses, its gateway and DNS, its Wi-Fi signal, Tailscale,
 * and what listens on which port.
 */
export function NetworkInfoPage() {
  const query = useNetworkInfo();
  const info = query.data;
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Network Info</h1>
          <p className="text-muted-foreground">
            How the hub is connected: its interfaces, addresses, gateway, DNS and the services it offers.
          </p>
        </div>
        <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
          <RefreshCw aria-hidden="true" className={cn(query.isFetching && 'animate-spin')} />
          Refresh
        </Button>
      </header>

      <HttpsSection />

      {info ? (
        <NetworkDetails info={info} />
      ) : query.error ? (
        <Card>
          <CardContent className="pt-6">
            <div role="alert" className="flex items-start gap-2 text-sm text-destructive">
              <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <div>
                <p className="font-medium">Couldn&apos;t read the hub&apos;s network</p>
                <p>{errorMessage(query.error) ?? query.error.message}</p>
              </div>
            </div>
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-4 lg:grid-cols-3" aria-busy="true">
          <span className="sr-only">Loading</span>
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-48 w-full rounded-xl" />
          ))}
        </div>
      )}
    </div>
  );
}

function NetworkDetails({ info }: { info: NetworkPage }) {
  const interfaces = sortInterfaces(info.interfaces);
  return (
    <>
      <Panel title="Overview" icon={Router}>
        <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <Item label="Hostname">{info.hostname}</Item>
          <Item label="Default interface">{info.defaultInterface ?? 'None'}</Item>
          <Item label="Gateway">{info.defaultGateway ?? 'No default route'}</Item>
          <Item label="DNS servers">
            {info.dns.nameservers.length > 0 ? (
              <ul>
                {info.dns.nameservers.map((server) => (
                  <li key={server} className="font-mono">
                    {server}
                  </li>
                ))}
              </ul>
            ) : (
              'None configured'
            )}
          </Item>
          {info.dns.search.length > 0 ? (
            <Item label="Search domains">{info.dns.search.join(', ')}</Item>
          ) : null}
        </dl>
      </Panel>

      {info.wifi && info.wifi.length > 0 ? (
        <Panel title="Wi-Fi" icon={Wifi} description="The hub's wireless links and their signal.">
          <ul className="grid gap-4 md:grid-cols-2">
            {info.wifi.map((link) => (
              <li key={link.interface}>
                <WifiCard link={link} />
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}

      <Panel
        title="Tailscale"
        icon={Network}
        description="The hub's tailnet, read from tailscaled on the hub."
      >
        <TailscaleDetails tailscale={info.tailscale} />
      </Panel>

      <section aria-labelledby="interfaces-heading" className="grid gap-3">
        <h2 id="interfaces-heading" className="text-lg font-semibold tracking-tight">
          Interfaces
        </h2>
        {interfaces.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            The hub reported no network interfaces. Check that the agent can read /sys/class/net.
          </p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {interfaces.map((iface) => (
              <li key={iface.name}>
                <InterfaceCard iface={iface} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <Panel
        title="Listening ports"
        icon={Globe}
        description="Sockets on the hub that accept connections, and which of its services owns each."
      >
        <PortsTable ports={info.listening} />
      </Panel>
    </>
  );
}

function InterfaceCard({ iface }: { iface: NetworkInterface }) {
  const Icon = iface.type === 'wireless' ? Wifi : Cable;
  const state = iface.operstate.toLowerCase();
  return (
    <Card className="h-full" aria-label={`Interface ${iface.name}`} role="group">
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0 pb-3">
        <div className="flex items-center gap-2">
          <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
          <h3 className="font-mono font-semibold">{iface.name}</h3>
        </div>
        <div className="flex flex-wrap justify-end gap-1">
          {iface.isDefault ? <Badge>Default route</Badge> : null}
          {iface.internal ? (
            <Badge variant="secondary">Loopback</Badge>
          ) : iface.virtual ? (
            <Badge variant="secondary">Virtual</Badge>
          ) : null}
          <StatusPill tone={state === 'up' ? 'good' : state === 'down' ? 'bad' : 'neutral'}>
            {iface.operstate.charAt(0).toUpperCase() + iface.operstate.slice(1)}
          </StatusPill>
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-1.5 text-sm">
          <Row label="IPv4">
            {iface.ip4 ? (
              <span className="font-mono">
                {iface.ip4}
                {iface.ip4Subnet ? <span className="text-muted-foreground"> / {iface.ip4Subnet}</span> : null}
              </span>
            ) : (
              <span className="text-muted-foreground">None</span>
            )}
          </Row>
          <Row label="IPv6">
            {iface.ip6 ? (
              <span className="font-mono break-all">{iface.ip6}</span>
            ) : (
              <span className="text-muted-foreground">None</span>
            )}
          </Row>
          <Row label="MAC">
            {iface.mac ? (
              <span className="font-mono">{iface.mac}</span>
            ) : (
              <span className="text-muted-foreground">—</span>
            )}
          </Row>
          <Row label="Link">
            {[iface.type, iface.speed ? `${iface.speed} Mbit/s` : null, iface.mtu ? `MTU ${iface.mtu}` : null]
              .filter(Boolean)
              .join(' · ')}
          </Row>
          <Row label="Traffic">
            ↓ {formatRate(iface.rxSec)} · ↑ {formatRate(iface.txSec)}
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

function WifiCard({ link }: { link: WifiLink }) {
  const words = signalWords(link.signalDbm);
  return (
    <dl className="grid gap-1.5 rounded-lg border p-4 text-sm" aria-label={`Wi-Fi ${link.interface}`}>
      <Row label="Interface">
        <span className="font-mono">{link.interface}</span>
      </Row>
      <Row label="Network (SSID)">{link.ssid ?? <span className="text-muted-foreground">Unknown</span>}</Row>
      <Row label="Signal">
        <StatusPill
          tone={
            words === 'Weak' ? 'bad' : words === 'Fair' ? 'warning' : words === 'Unknown' ? 'neutral' : 'good'
          }
        >
          {words}
        </StatusPill>{' '}
        {link.signalDbm !== null ? <span className="tabular-nums">{link.signalDbm} dBm</span> : null}
        {link.quality !== null ? (
          <span className="text-muted-foreground tabular-nums"> · {link.quality}%</span>
        ) : null}
      </Row>
      {link.txBitrate !== null ? <Row label="Bit rate">{link.txBitrate} Mbit/s</Row> : null}
      {link.frequencyMhz !== null ? (
        <Row label="Band">
          {link.frequencyMhz >= 5900 ? '6 GHz' : link.frequencyMhz >= 4900 ? '5 GHz' : '2.4 GHz'} (
          {link.frequencyMhz} MHz)
        </Row>
      ) : null}
    </dl>
  );
}

function TailscaleDetails({ tailscale }: { tailscale: TailscaleInfo }) {
  const state = tailscale.state;
  if (!state) {
    return (
      <p className="text-sm text-muted-foreground">
        {tailscale.message ?? 'Tailscale is not running on this hub'}
      </p>
    );
  }
  const running = state.backendState === 'Running';
  return (
    <div className="grid gap-4">
      <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <Item label="State">
          <StatusPill tone={running ? 'good' : 'warning'}>{state.backendState}</StatusPill>
        </Item>
        <Item label="Tailnet">{state.tailnet ?? '—'}</Item>
        <Item label="This hub's addresses">
          {state.tailscaleIps.length ? (
            <ul>
              {state.tailscaleIps.map((ip) => (
                <li key={ip} className="font-mono">
                  {ip}
                </li>
              ))}
            </ul>
          ) : (
            'None'
          )}
        </Item>
        <Item label="Exit node">
          {state.exitNode
            ? `${state.exitNode.hostName ?? state.exitNode.tailscaleIps[0] ?? 'Unknown'}${state.exitNode.online ? '' : ' (offline)'}`
            : 'None'}
        </Item>
      </dl>
      {state.peers.length > 0 ? (
        <Table label="Tailscale peers">
          <TableHeader>
            <TableRow>
              <TableHead>Peer</TableHead>
              <TableHead>Addresses</TableHead>
              <TableHead>State</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {state.peers.map((peer) => (
              <TableRow key={`${peer.hostName}-${peer.tailscaleIps[0] ?? ''}`}>
                <TableCell className="font-medium">
                  {peer.hostName}
                  {peer.exitNode ? (
                    <Badge variant="outline" className="ml-2">
                      Exit node
                    </Badge>
                  ) : null}
                </TableCell>
                <TableCell className="font-mono text-muted-foreground">
                  {peer.tailscaleIps.join(', ')}
                </TableCell>
                <TableCell>
                  <StatusPill tone={peer.online ? 'good' : 'neutral'}>
                    {peer.online ? 'Online' : 'Offline'}
                  </StatusPill>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <p className="text-sm text-muted-foreground">No peers in the tailnet.</p>
      )}
    </div>
  );
}

function PortsTable({ ports }: { ports: ListeningPort[] }) {
  if (ports.length === 0) {
    return (
      <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
        No listening sockets were reported. The agent needs to read /proc/net to list them; run it with access
        to the host&apos;s network namespace.
      </p>
    );
  }
  const sorted = [...ports].sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
  return (
    <Table label="Listening ports table">
      <TableHeader>
        <TableRow>
          <TableHead>Port</TableHead>
          <TableHead>Protocol</TableHead>
          <TableHead>Address</TableHead>
          <TableHead>Service</TableHead>
          <TableHead>Process</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {sorted.map((port) => (
          <TableRow key={`${port.protocol}:${port.address}:${port.port}`}>
            <TableCell className="font-mono font-medium tabular-nums">{port.port}</TableCell>
            <TableCell className="uppercase">{port.protocol}</TableCell>
            <TableCell className="font-mono text-muted-foreground">{port.address}</TableCell>
            <TableCell>
              {port.service ? (
                <Badge variant="outline">{port.service}</Badge>
              ) : (
                <span className="text-muted-foreground">—</span>
              )}
            </TableCell>
            <TableCell className="text-muted-foreground">
              {port.process ?? 'unknown'}
              {port.pid !== null ? ` (${port.pid})` : ''}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}
