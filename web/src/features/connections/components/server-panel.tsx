import { useQuery } from '@tanstack/react-query';
import { Server, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { wgServerInputSchema, type WgServer } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { StatusPill } from '@/components/ui/status-pill';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useSaveServer, wgServerQueryOptions } from '@/data/vpn';
import { Empty, Field, LoadError, Loading } from './shared';

type ServerField = 'interface' | 'listenPort' | 'address' | 'endpoint' | 'dns';
type ServerErrors = Partial<Record<ServerField, string>>;

/** What to do about a server that is not running, whatever the agent's words for the cause. */
const SERVER_HELP =
  'The hub needs wireguard-tools and either the kernel WireGuard module or wireguard-go, and the agent needs to run as root (or with CAP_NET_ADMIN). Install them on the hub, then save the settings again.';

/** The hub's WireGuard server (admins): its settings, its public key and whether it runs. */
export function ServerPanel() {
  const server = useQuery(wgServerQueryOptions(true));
  const data = server.data;
  return (
    <Panel
      title="The hub's WireGuard server"
      icon={Server}
      description="Phones and laptops dial in to this interface to reach the hub and your home network."
      actions={data?.configured ? <ServerState server={data} /> : null}
    >
      {data ? (
        <>
          {!data.configured ? (
            <Empty>
              Set up the hub&apos;s WireGuard server to reach it from your phone: pick an address range for
              the tunnel, the port your router forwards to the hub, and the public address phones dial.
            </Empty>
          ) : null}
          {data.configured ? <ServerFacts server={data} /> : null}
          {data.problem ? (
            <Alert variant="warning" data-testid="server-problem">
              <TriangleAlert aria-hidden="true" />
              <AlertTitle>The WireGuard server is not running</AlertTitle>
              <AlertDescription>
                <p>{data.problem}</p>
                <p>{SERVER_HELP}</p>
              </AlertDescription>
            </Alert>
          ) : null}
          <ServerForm key={data.configured ? 'saved' : 'new'} server={data} />
        </>
      ) : server.error ? (
        <LoadError what="the WireGuard server" error={server.error} />
      ) : (
        <Loading label="Loading the WireGuard server" />
      )}
    </Panel>
  );
}

function ServerState({ server }: { server: WgServer }) {
  if (!server.enabled) return <StatusPill tone="neutral">Turned off</StatusPill>;
  return (
    <StatusPill tone={server.running ? 'good' : 'bad'} data-testid="server-state">
      {server.running ? 'Running' : 'Not running'}
    </StatusPill>
  );
}

function ServerFacts({ server }: { server: WgServer }) {
  return (
    <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
      <div className="min-w-0 space-y-0.5 sm:col-span-2">
        <dt className="text-muted-foreground">Public key</dt>
        <dd className="font-mono break-all" data-testid="server-public-key">
          {server.publicKey ?? 'Not made yet'}
        </dd>
      </div>
      <div className="space-y-0.5">
        <dt className="text-muted-foreground">Runs on</dt>
        <dd className="font-medium">
          {server.implementation === 'kernel'
            ? 'The kernel’s WireGuard module'
            : server.implementation === 'wireguard-go'
              ? 'wireguard-go (userspace; this kernel has no WireGuard module)'
              : 'Not running'}
        </dd>
      </div>
      <div className="space-y-0.5">
        <dt className="text-muted-foreground">Interface</dt>
        <dd className="font-mono">
          {server.interface} · port {server.listenPort}
        </dd>
      </div>
    </dl>
  );
}

function ServerForm({ server }: { server: WgServer }) {
  const id = useId();
  const save = useSaveServer();
  const [values, setValues] = useState({
    interface: server.configured ? server.interface : 'wg0',
    listenPort: String(server.configured ? server.listenPort : 51820),
    address: server.configured ? server.address : '10.8.0.1/24',
    endpoint: server.configured ? server.endpoint : '',
    dns: server.dns ?? '',
    enabled: server.configured ? server.enabled : true,
  });
  const [errors, setErrors] = useState<ServerErrors>({});
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = wgServerInputSchema.safeParse({
      interface: values.interface.trim(),
      listenPort: values.listenPort.trim() === '' ? Number.NaN : Number(values.listenPort),
      address: values.address.trim(),
      endpoint: values.endpoint.trim(),
      enabled: values.enabled,
      ...(values.dns.trim() ? { dns: values.dns.trim() } : {}),
    });
    if (!parsed.success) {
      const next: ServerErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as ServerField;
        next[field] ??= field === 'listenPort' ? 'Enter a port from 1 to 65535.' : issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (saved) =>
        toast({
          title: 'WireGuard server saved',
          description: saved.running ? 'It is running.' : (saved.problem ?? 'It is not running.'),
        }),
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      aria-label="WireGuard server settings"
    >
      <Field id={`${id}-if`} label="Interface name" error={errors.interface}>
        {(aria) => <Input {...aria} value={values.interface} onChange={set('interface')} maxLength={15} />}
      </Field>
      <Field
        id={`${id}-port`}
        label="Listen port"
        error={errors.listenPort}
        hint="Forward this UDP port on your router to the hub."
      >
        {(aria) => (
          <Input {...aria} inputMode="numeric" value={values.listenPort} onChange={set('listenPort')} />
        )}
      </Field>
      <Field
        id={`${id}-addr`}
        label="Address range"
        error={errors.address}
        hint="The hub's address in the tunnel; devices get the next free addresses in this range."
      >
        {(aria) => (
          <Input {...aria} value={values.address} onChange={set('address')} placeholder="10.8.0.1/24" />
        )}
      </Field>
      <Field
        id={`${id}-endpoint`}
        label="Public endpoint"
        error={errors.endpoint}
        hint="The host name or address and port phones dial from outside, e.g. hub.example.org:51820."
      >
        {(aria) => (
          <Input
            {...aria}
            value={values.endpoint}
            onChange={set('endpoint')}
            placeholder="hub.example.org:51820"
          />
        )}
      </Field>
      <Field
        id={`${id}-dns`}
        label="DNS for devices (optional)"
        error={errors.dns}
        hint="E.g. your router, 192.168.1.1."
      >
        {(aria) => <Input {...aria} value={values.dns} onChange={set('dns')} />}
      </Field>
      <div className="flex items-center gap-3 self-center">
        <Switch
          id={`${id}-enabled`}
          checked={values.enabled}
          onCheckedChange={(enabled) => setValues((v) => ({ ...v, enabled }))}
        />
        <Label htmlFor={`${id}-enabled`}>Server on</Label>
      </div>
      {save.error ? (
        <Alert variant="destructive" className="sm:col-span-2">
          <AlertTitle>Could not save the WireGuard server</AlertTitle>
          <AlertDescription>{errorMessage(save.error)}</AlertDescription>
        </Alert>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : server.configured ? 'Save server settings' : 'Set up the server'}
        </Button>
      </div>
    </form>
  );
}
