import { useQuery } from '@tanstack/react-query';
import { Network } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { VPN_LATENCY_WARNING_MS, type Uplinks } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { StatusPill } from '@/components/ui/status-pill';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { uplinksQueryOptions, useSaveUplinks } from '@/data/vpn';
import {
  handshakeAgo,
  parseUplinksForm,
  uplinksFormValues,
  type UplinksFormErrors,
  type UplinksFormValues,
} from '../connections-logic';
import { Empty, Field, LoadError, Loading } from './shared';
import { axisUnit } from '@/lib/chart-axis';

type Uplink = Uplinks['uplinks'][number];
const ROLE_LABEL = { primary: 'Primary', backup: 'Backup' } as const;

/** The hub's own tunnels to a VPN provider (admins): primary and backup, with health-checked failover. */
export function UplinksPanel() {
  const uplinks = useQuery(uplinksQueryOptions(true));
  const data = uplinks.data;
  return (
    <Panel
      title="Uplinks and failover"
      icon={Network}
      description="The hub's own tunnels to your VPN provider. Probes go through each; when the primary fails several in a row, traffic moves to the backup, and back once the primary is healthy again."
      actions={
        data ? (
          <StatusPill
            tone={data.active === 'none' ? 'neutral' : data.active === 'primary' ? 'good' : 'warning'}
          >
            {data.active === 'none' ? 'No tunnel active' : `${ROLE_LABEL[data.active]} active`}
          </StatusPill>
        ) : null
      }
    >
      {data ? (
        <>
          {data.uplinks.some((u) => u.configured) ? (
            <ul className="grid gap-4 md:grid-cols-2" aria-label="Uplink tunnels">
              {data.uplinks.map((u) => (
                <li key={u.role}>
                  <UplinkCard uplink={u} active={data.active === u.role} />
                </li>
              ))}
            </ul>
          ) : (
            <Empty>
              No uplink yet. Paste your VPN provider&apos;s WireGuard config as the primary (and another as
              the backup) to route the hub&apos;s traffic through it.
            </Empty>
          )}
          <LatencyChart points={data.latency} />
          <UplinksForm uplinks={data} />
        </>
      ) : uplinks.error ? (
        <LoadError what="the uplinks" error={uplinks.error} />
      ) : (
        <Loading label="Loading the uplinks" />
      )}
    </Panel>
  );
}

function UplinkCard({ uplink, active }: { uplink: Uplink; active: boolean }) {
  const health = !uplink.configured
    ? { tone: 'neutral' as const, word: 'Not set up' }
    : uplink.healthy === null
      ? { tone: 'neutral' as const, word: 'Not probed yet' }
      : uplink.healthy
        ? { tone: 'good' as const, word: 'Healthy' }
        : { tone: 'bad' as const, word: 'Failing' };
  return (
    <section
      aria-label={`${ROLE_LABEL[uplink.role]} uplink`}
      className="h-full space-y-3 rounded-lg border p-4"
      data-testid={`uplink-${uplink.role}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">
          {ROLE_LABEL[uplink.role]}
          {active ? (
            <span className="ml-2 text-sm font-normal text-muted-foreground">(carrying traffic)</span>
          ) : null}
        </h3>
        <StatusPill tone={health.tone}>{health.word}</StatusPill>
      </div>
      {uplink.configured ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Endpoint</dt>
          <dd className="font-mono break-all">{uplink.endpoint ?? '—'}</dd>
          <dt className="text-muted-foreground">Address</dt>
          <dd className="font-mono">{uplink.address ?? '—'}</dd>
          <dt className="text-muted-foreground">Interface</dt>
          <dd className="font-mono">
            {uplink.interface ?? '—'} · {uplink.up ? 'up' : 'down'}
          </dd>
          <dt className="text-muted-foreground">Last probe</dt>
          <dd>{uplink.latencyMs === null ? 'no answer' : `${Math.round(uplink.latencyMs)} ms`}</dd>
          <dt className="text-muted-foreground">In a row</dt>
          <dd>
            {uplink.consecutiveFailures} failed · {uplink.consecutiveSuccesses} good
          </dd>
          <dt className="text-muted-foreground">Handshake</dt>
          <dd>{handshakeAgo(uplink.latestHandshake)}</dd>
        </dl>
      ) : (
        <p className="text-sm text-muted-foreground">Paste a config below to set it up.</p>
      )}
    </section>
  );
}

const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };
const tooltipStyle = {
  backgroundColor: 'var(--color-popover)',
  border: '1px solid var(--color-border)',
  borderRadius: 8,
  color: 'var(--color-popover-foreground)',
};

function LatencyChart({ points }: { points: Uplinks['latency'] }) {
  if (!points.length) {
    return (
      <Empty>No probe yet: the latency through the active tunnel is charted here once probes run.</Empty>
    );
  }
  const data = points.map((p) => ({
    at: Date.parse(p.at),
    primary: p.role === 'primary' ? p.ms : null,
    backup: p.role === 'backup' ? p.ms : null,
  }));
  const measured = points.flatMap((p) => (p.ms === null ? [] : [p.ms]));
  const worst = measured.length ? Math.round(Math.max(...measured)) : null;
  const time = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">Latency through the active tunnel</figcaption>
      <div
        role="img"
        aria-label={`Latency through the active tunnel over the last ${points.length} probes${worst === null ? ', none answered' : `, highest ${worst} ms`}`}
        className="h-56 w-full"
        data-testid="latency-chart"
      >
        <LineChart data={data} responsive style={{ width: '100%', height: '100%' }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis
            dataKey="at"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            tick={axisTick}
            tickFormatter={time}
            {...axisUnit('x', 'time')}
          />
          <YAxis
            tick={axisTick}
            width={56}
            unit=" ms"
            label={{
              value: 'ms',
              angle: -90,
              position: 'insideLeft',
              fill: 'var(--color-muted-foreground)',
              fontSize: 11,
            }}
            domain={[0, (max: number) => Math.max(max, VPN_LATENCY_WARNING_MS)]}
          />
          <Tooltip
            contentStyle={tooltipStyle}
            labelFormatter={(label) => new Date(Number(label)).toLocaleTimeString()}
            formatter={(value) =>
              value === null || value === undefined ? 'no answer' : `${Math.round(Number(value))} ms`
            }
          />
          <Legend />
          <Line
            dataKey="primary"
            name="Primary"
            stroke="var(--color-primary)"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            dataKey="backup"
            name="Backup"
            stroke="var(--color-warning)"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </div>
    </figure>
  );
}

function UplinksForm({ uplinks }: { uplinks: Uplinks }) {
  const id = useId();
  const save = useSaveUplinks();
  const [values, setValues] = useState<UplinksFormValues>(() => uplinksFormValues(uplinks));
  const [remove, setRemove] = useState<{ primary?: boolean; backup?: boolean }>({});
  const [errors, setErrors] = useState<UplinksFormErrors>({});
  const set = (field: keyof UplinksFormValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  const configured = (role: 'primary' | 'backup') => uplinks.uplinks.find((u) => u.role === role)?.configured;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseUplinksForm(values, remove);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    save.mutate(parsed.input, {
      onSuccess: () => {
        // Write-only: once saved, the pasted text leaves the page; the cards show endpoint and address.
        setValues((v) => ({ ...v, primary: '', backup: '' }));
        setRemove({});
        toast({ title: 'Uplinks saved' });
      },
    });
  };

  const configField = (role: 'primary' | 'backup') => (
    <Field
      id={`${id}-${role}`}
      label={`${ROLE_LABEL[role]} provider config`}
      error={errors[role]}
      hint={
        configured(role)
          ? 'A config is saved (its keys are never shown). Paste a new one to replace it, or leave empty to keep it.'
          : 'Paste the WireGuard config file from your VPN provider ([Interface] and [Peer]).'
      }
    >
      {(aria) => (
        <>
          <Textarea
            {...aria}
            value={values[role]}
            onChange={set(role)}
            rows={5}
            spellCheck={false}
            autoComplete="off"
            className="font-mono text-xs"
            placeholder={'[Interface]\nPrivateKey = …\nAddress = …\n\n[Peer]\n…'}
          />
          {configured(role) ? (
            <div className="flex items-center gap-2">
              <Checkbox
                id={`${id}-${role}-remove`}
                checked={remove[role] ?? false}
                onCheckedChange={(checked) => setRemove((r) => ({ ...r, [role]: checked === true }))}
              />
              <Label htmlFor={`${id}-${role}-remove`}>Remove the {role} config</Label>
            </div>
          ) : null}
        </>
      )}
    </Field>
  );

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Uplink settings"
      className="grid gap-4 border-t pt-4 md:grid-cols-2"
    >
      {configField('primary')}
      {configField('backup')}
      <Field
        id={`${id}-target`}
        label="Probe target"
        error={errors.probeTarget}
        hint="An IP address (pinged) or host:port (a TCP connect) reached through each tunnel, e.g. 1.1.1.1."
      >
        {(aria) => <Input {...aria} value={values.probeTarget} onChange={set('probeTarget')} />}
      </Field>
      <Field id={`${id}-interval`} label="Probe every (seconds)" error={errors.intervalSeconds}>
        {(aria) => (
          <Input
            {...aria}
            inputMode="numeric"
            value={values.intervalSeconds}
            onChange={set('intervalSeconds')}
          />
        )}
      </Field>
      <Field id={`${id}-fail`} label="Switch to backup after (failed probes)" error={errors.failAfter}>
        {(aria) => (
          <Input {...aria} inputMode="numeric" value={values.failAfter} onChange={set('failAfter')} />
        )}
      </Field>
      <Field id={`${id}-recover`} label="Switch back after (good probes)" error={errors.recoverAfter}>
        {(aria) => (
          <Input {...aria} inputMode="numeric" value={values.recoverAfter} onChange={set('recoverAfter')} />
        )}
      </Field>
      {save.error ? (
        <Alert variant="destructive" className="md:col-span-2">
          <AlertTitle>Could not save the uplinks</AlertTitle>
          <AlertDescription>{errorMessage(save.error)}</AlertDescription>
        </Alert>
      ) : null}
      <div className="md:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save uplinks'}
        </Button>
      </div>
    </form>
  );
}
