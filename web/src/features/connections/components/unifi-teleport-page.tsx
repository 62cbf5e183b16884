import { CircleHelp, ListOrdered, MapPin, RefreshCw, ShieldCheck } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { useNetworkInfo } from '@/data/network';
import { cn } from '@/lib/utils';
import { useVisitor } from '@/data/vpn';
import { visitorSentence } from '../connections-logic';
import { LoadError, Loading } from './shared';
import { pageContainer } from '@/components/page-container';

/** /unifi-teleport: reaching the hub through a UniFi gateway's Teleport, and a check of how this visitor came in. */
export function UnifiTeleportPage() {
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">UniFi Teleport</h1>
        <p className="text-muted-foreground">
          If your home runs on a UniFi gateway, Teleport lets your phone or laptop join your home network from
          anywhere, and open the hub as if you were at home.
        </p>
      </header>
      <VisitorCheck />
      <Panel title="What Teleport is" icon={CircleHelp}>
        <p className="text-sm">
          Teleport is the VPN built into UniFi gateways (Dream Machine, Cloud Gateway, UniFi Express and
          others). It is WireGuard underneath, set up from the UniFi app with an invitation link instead of
          keys and port forwarding. Connected devices get an address from Teleport&apos;s own subnet,{' '}
          <span className="font-mono">192.168.2.0/24</span> by default, and can reach the devices on your home
          network, the hub included.
        </p>
      </Panel>
      <Panel title="Set it up in the UniFi app" icon={ListOrdered}>
        <ol className="list-decimal space-y-2 pl-5 text-sm">
          <li>
            In the UniFi Network app (or unifi.ui.com), open your gateway, then{' '}
            <strong>Settings → VPN</strong> and choose <strong>Teleport</strong>.
          </li>
          <li>Turn Teleport on, and create an invitation link for the person who will connect.</li>
          <li>
            On the phone or laptop, install the <strong>WiFiman</strong> app, open the invitation link there
            and accept it.
          </li>
          <li>Away from home, connect with WiFiman; it says when you are on your home network.</li>
          <li>
            Open the hub&apos;s address below in the browser, and check the result at the top of this page.
          </li>
        </ol>
        <p className="text-sm text-muted-foreground">
          Teleport&apos;s subnet can be changed in UniFi (Settings → VPN → Teleport). This check knows only
          the default, 192.168.2.0/24; with another subnet it reports a private network it does not know.
        </p>
      </Panel>
      <HubAddress />
    </div>
  );
}

function VisitorCheck() {
  const visitor = useVisitor();
  const result = visitor.data ? visitorSentence(visitor.data) : null;
  return (
    <Panel
      title="Are you coming through a VPN?"
      icon={ShieldCheck}
      description="How this browser reached the hub, judged from its address."
      actions={
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void visitor.refetch()}
          disabled={visitor.isFetching}
        >
          <RefreshCw aria-hidden="true" className={cn(visitor.isFetching && 'animate-spin')} />
          Check again
        </Button>
      }
    >
      {visitor.data && result ? (
        <Alert
          variant={visitor.data.viaVpn ? 'success' : 'default'}
          data-testid="visitor-result"
          data-kind={visitor.data.kind}
        >
          <AlertTitle>{result.title}</AlertTitle>
          <AlertDescription>{result.detail}</AlertDescription>
        </Alert>
      ) : visitor.error ? (
        <LoadError what="the check" error={visitor.error} />
      ) : (
        <Loading label="Checking how you reached the hub" />
      )}
    </Panel>
  );
}

function HubAddress() {
  const network = useNetworkInfo();
  const info = network.data;
  const lan =
    info?.interfaces.find((i) => i.isDefault && i.ip4) ?? info?.interfaces.find((i) => !i.internal && i.ip4);
  const port = window.location.port || (window.location.protocol === 'https:' ? '443' : '80');
  const url = lan?.ip4
    ? `${window.location.protocol}//${lan.ip4}${window.location.port ? `:${port}` : ''}/`
    : null;
  return (
    <Panel
      title="The address to open"
      icon={MapPin}
      description="Teleport puts you on your home network, so use the hub's local address, not a public one."
    >
      {info ? (
        url ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Address</dt>
            <dd className="font-mono" data-testid="hub-lan-url">
              {url}
            </dd>
            <dt className="text-muted-foreground">LAN address</dt>
            <dd className="font-mono">
              {lan?.ip4} ({lan?.name})
            </dd>
            <dt className="text-muted-foreground">Port</dt>
            <dd className="font-mono">{port}</dd>
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">
            The hub reported no LAN address. Check its network on the Network Info screen.
          </p>
        )
      ) : network.error ? (
        <LoadError what="the hub's address" error={network.error} />
      ) : (
        <Loading label="Loading the hub's address" />
      )}
    </Panel>
  );
}
