import { Fact } from '@/components/fact-list';
import { Panel } from '@/components/ui/panel';
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, KeyRound, Save, Trash2, XCircle } from 'lucide-react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { useLocation } from 'wouter';
import type { HaStatus } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { StatusPill } from '@/components/ui/status-pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth';
import type { LiveConnectionState } from '@/lib/live';
import { errorMessage } from '@/lib/request';
import { probeHub } from '@/data/health';
import {
  haActivityQueryOptions,
  haEntitiesQueryOptions,
  haSettingsQueryOptions,
  useForgetHaSettings,
  useSaveHaSettings,
  probeHaStatus,
} from '@/data/home-assistant';
import { domainLabel, relativeTime, responseTimeTone } from '../entity-logic';
import { useHaLive } from '@/data/home-assistant';
import { ConnectionTestCard } from './connection-test-panel';
import { MemberAccessCard } from './member-access-card';
import { ConnectionBanner, ConnectionPill, ErrorCard, HaPage, LivePill, useHaStatus } from './ha-common';
import { useNow } from './entities-page';
import { axisUnit } from '@/lib/chart-axis';
import { humanize } from '@/lib/words';

/** Spec §2: one screen, six paths; each path opens its tab. */
export const HA_TABS = [
  { value: 'setup', path: '/ha-connection-setup', label: 'Connection setup' },
  { value: 'manager', path: '/ha-manager', label: 'Manager' },
  { value: 'test', path: '/ha-test', label: 'Test' },
  { value: 'troubleshoot', path: '/ha-web-troubleshoot', label: 'Web troubleshoot' },
  { value: 'summary', path: '/ha-summary', label: 'Summary' },
  { value: 'debug', path: '/ha-debug', label: 'Debug' },
] as const;

const formatMs = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };

/** /ha-connection-setup, /ha-manager, /ha-test, /ha-web-troubleshoot, /ha-summary, /ha-debug. */
export function HaUnifiedPage() {
  const [location, navigate] = useLocation();
  const tab = HA_TABS.find((t) => t.path === location) ?? HA_TABS[0];
  const status = useHaStatus();
  const { liveState } = useHaLive();
  return (
    <HaPage
      title="Home Assistant"
      description="Connect the hub to Home Assistant, test and troubleshoot the connection, and see a summary of your setup."
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          <LivePill state={liveState} />
        </>
      }
    >
      <Tabs
        value={tab.value}
        onValueChange={(value) => navigate(HA_TABS.find((t) => t.value === value)?.path ?? HA_TABS[0].path)}
      >
        <TabsList className="h-auto w-full flex-wrap justify-start">
          {HA_TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="flex-none">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="setup" className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-2">
          <SetupTab status={status.data} />
        </TabsContent>
        <TabsContent value="manager" className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-2">
          <ConnectionBanner status={status.data} />
          {status.data ? <ManagerTab status={status.data} /> : <StatusLoading error={status.error} />}
        </TabsContent>
        <TabsContent value="test" className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-2">
          <ConnectionTestCard />
        </TabsContent>
        <TabsContent value="troubleshoot" className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-2">
          <TroubleshootTab status={status.data} liveState={liveState} />
        </TabsContent>
        <TabsContent value="summary" className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-2">
          <ConnectionBanner status={status.data} />
          {status.data ? <SummaryTab status={status.data} /> : <StatusLoading error={status.error} />}
        </TabsContent>
        <TabsContent value="debug" className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-2">
          {status.data ? <DebugTab status={status.data} /> : <StatusLoading error={status.error} />}
        </TabsContent>
      </Tabs>
    </HaPage>
  );
}

function StatusLoading({ error }: { error: Error | null }) {
  if (error) return <ErrorCard title="Couldn't read the connection's state" error={error} />;
  return (
    <div className="grid gap-3 md:grid-cols-3" aria-busy="true">
      <span className="sr-only">Loading</span>
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} className="h-28 rounded-xl" />
      ))}
    </div>
  );
}

// ---- setup ----------------------------------------------------------------------------------

function SetupTab({ status }: { status: HaStatus | undefined }) {
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <>
        <ConnectionBanner status={status} />
        <Alert>
          <KeyRound aria-hidden="true" />
          <AlertTitle>Only administrators change the connection</AlertTitle>
          <AlertDescription>
            The hub keeps Home Assistant&apos;s address and token for everyone. Ask an administrator if it
            needs to change; you can still run the connection test.
          </AlertDescription>
        </Alert>
      </>
    );
  }
  return (
    <>
      <SetupForm />
      <MemberAccessCard />
    </>
  );
}

function SetupForm() {
  const id = useId();
  const settings = useQuery(haSettingsQueryOptions());
  const save = useSaveHaSettings();
  const forget = useForgetHaSettings();
  /** null until the admin edits it: the stored address shows meanwhile. */
  const [editedUrl, setUrl] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const [testInput, setTestInput] = useState<{ url?: string; token?: string } | undefined>(undefined);
  const url = editedUrl ?? settings.data?.url ?? '';

  if (!settings.data) {
    return settings.error ? (
      <ErrorCard title="Couldn't read the settings" error={settings.error} />
    ) : (
      <StatusLoading error={null} />
    );
  }
  const stored = settings.data;
  const tokenGiven = token.trim() !== '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { url: url.trim(), ...(tokenGiven ? { token: token.trim() } : {}) },
      { onSuccess: () => setToken('') },
    );
  };
  const result = save.data;

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Connection</h2>
          </CardTitle>
          <CardDescription>
            The hub talks to Home Assistant for you: your browser never gets its address or token. The token
            is stored encrypted on the hub and is never shown again.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4" onSubmit={onSubmit} aria-label="Home Assistant connection">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-url`}>Home Assistant address</Label>
              <Input
                id={`${id}-url`}
                type="url"
                required
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="http://homeassistant.local:8123"
                autoComplete="off"
              />
              <p className="text-xs text-muted-foreground">
                The address you open Home Assistant with, without a path.
              </p>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-token`}>Long-lived access token</Label>
              {stored.tokenSet ? (
                <p className="flex items-center gap-2 text-sm" data-testid="stored-token">
                  <span
                    className="font-mono tracking-widest text-muted-foreground"
                    aria-label="Stored token, hidden"
                  >
                    ••••••••••••••••
                  </span>
                  <Badge variant="secondary">
                    Stored{stored.source === 'environment' ? ' from HA_TOKEN' : ''}
                  </Badge>
                </p>
              ) : null}
              <Input
                id={`${id}-token`}
                type="password"
                value={token}
                onChange={(e) => setToken(e.target.value)}
                placeholder={
                  stored.tokenSet ? 'Leave empty to keep the stored token' : 'Paste the token here'
                }
                required={!stored.tokenSet}
                autoComplete="off"
                spellCheck={false}
              />
              <p className="text-xs text-muted-foreground">
                In Home Assistant: your profile → Security → Long-lived access tokens → Create token. Use an
                administrator&apos;s account so the hub can read devices and areas.
              </p>
            </div>
            {save.error ? (
              <Alert variant="destructive">
                <XCircle aria-hidden="true" />
                <AlertTitle>Not saved</AlertTitle>
                <AlertDescription>{errorMessage(save.error) ?? save.error.message}</AlertDescription>
              </Alert>
            ) : result ? (
              result.state === 'connected' ? (
                <Alert variant="success">
                  <CheckCircle2 aria-hidden="true" />
                  <AlertTitle>Saved and connected</AlertTitle>
                  <AlertDescription>The hub is connected to Home Assistant.</AlertDescription>
                </Alert>
              ) : (
                <Alert variant="destructive">
                  <XCircle aria-hidden="true" />
                  <AlertTitle>Saved, but not connected</AlertTitle>
                  <AlertDescription>
                    {result.message ?? 'The hub keeps trying.'} Run the test below to see which step fails.
                  </AlertDescription>
                </Alert>
              )
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <Spinner /> : <Save aria-hidden="true" />}
                {save.isPending ? 'Connecting…' : 'Save and connect'}
              </Button>
              <Button
                variant="outline"
                disabled={!url.trim()}
                onClick={() =>
                  setTestInput({ url: url.trim(), ...(tokenGiven ? { token: token.trim() } : {}) })
                }
              >
                Test these settings
              </Button>
              {stored.configured ? (
                <AlertDialog>
                  <AlertDialogTrigger asChild>
                    <Button variant="ghost" className="text-destructive">
                      <Trash2 aria-hidden="true" />
                      Disconnect
                    </Button>
                  </AlertDialogTrigger>
                  <AlertDialogContent>
                    <AlertDialogHeader>
                      <AlertDialogTitle>Disconnect Home Assistant?</AlertDialogTitle>
                      <AlertDialogDescription>
                        The hub forgets the address and the token. Screens that use Home Assistant stop
                        working until it is connected again.
                      </AlertDialogDescription>
                    </AlertDialogHeader>
                    <AlertDialogFooter>
                      <AlertDialogCancel>Cancel</AlertDialogCancel>
                      <AlertDialogAction onClick={() => forget.mutate()}>Disconnect</AlertDialogAction>
                    </AlertDialogFooter>
                  </AlertDialogContent>
                </AlertDialog>
              ) : null}
            </div>
          </form>
        </CardContent>
      </Card>
      {testInput ? (
        <ConnectionTestCard
          key={JSON.stringify(testInput)}
          input={testInput}
          title="Test before saving"
          description="Runs every step with the address and token in the form; nothing is saved."
        />
      ) : (
        <ConnectionTestCard />
      )}
    </div>
  );
}

// ---- manager --------------------------------------------------------------------------------

function ManagerTab({ status }: { status: HaStatus }) {
  const now = useNow(5_000);
  const activity = useQuery({ ...haActivityQueryOptions(), enabled: status.state === 'connected' });
  const pings = status.pings.map((p) => ({ at: p.at, ms: p.ms }));
  return (
    <>
      <Panel title="Connection">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact layout="stacked" label="State">
            <ConnectionPill status={status} />
          </Fact>
          <Fact layout="stacked" label="Response time">
            {status.responseTime === null ? (
              <span className="text-muted-foreground">Not measured</span>
            ) : (
              <StatusPill tone={responseTimeTone(status.responseTime)}>
                {formatMs(status.responseTime)}
              </StatusPill>
            )}
          </Fact>
          <Fact layout="stacked" label="Connected since">
            {status.connectedSince ? relativeTime(new Date(status.connectedSince).toISOString(), now) : '—'}
          </Fact>
          <Fact layout="stacked" label="Home Assistant">
            {status.haVersion ?? '—'}
          </Fact>
          <Fact layout="stacked" label="Entities">
            {status.counts.entities.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="Devices">
            {status.counts.devices.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="Areas">
            {status.counts.areas.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="State changes received">
            {status.eventsReceived.toLocaleString()}
          </Fact>
        </dl>
      </Panel>
      <Panel
        title="Round trips"
        description="The hub pings Home Assistant every 5 seconds; gaps are missed answers."
      >
        {pings.length ? (
          <div
            role="img"
            aria-label={`Ping round trips, last ${formatMs(status.responseTime ?? 0)}`}
            className="h-48 w-full"
          >
            <LineChart
              data={pings}
              responsive
              style={{ width: '100%', height: '100%' }}
              margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
            >
              <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" />
              <XAxis
                dataKey="at"
                tick={axisTick}
                tickFormatter={(t: number) => new Date(t).toLocaleTimeString()}
                minTickGap={40}
                {...axisUnit('x', 'time')}
              />
              <YAxis tick={axisTick} width={48} unit=" ms" />
              <Tooltip
                labelFormatter={(t) => new Date(Number(t)).toLocaleTimeString()}
                formatter={(v) => (v == null ? 'missed' : formatMs(Number(v)))}
                contentStyle={{ background: 'var(--color-popover)', border: '1px solid var(--color-border)' }}
              />
              <Line
                type="monotone"
                dataKey="ms"
                name="Round trip"
                stroke="var(--color-primary)"
                dot={false}
                isAnimationActive={false}
                connectNulls={false}
              />
            </LineChart>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No pings yet: they start once the hub is connected.</p>
        )}
      </Panel>
      <Panel
        title="Recent activity"
        description="State changes as they arrive; ones marked “refilled” came from history after a reconnect."
      >
        {activity.data?.length ? (
          <ul className="grid gap-1 text-sm">
            {activity.data.slice(0, 25).map((a, i) => (
              <li key={`${a.at}-${a.entity_id}-${i}`} className="flex flex-wrap items-baseline gap-2">
                <time dateTime={a.at} className="text-muted-foreground tabular-nums">
                  {new Date(a.at).toLocaleTimeString()}
                </time>
                <span className="font-medium">{a.name}</span>
                <span className="text-muted-foreground">
                  {a.from ?? '—'} → {a.to}
                </span>
                {a.refilled ? <Badge variant="outline">refilled</Badge> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">Nothing has changed since the hub connected.</p>
        )}
      </Panel>
    </>
  );
}

// ---- web troubleshoot -----------------------------------------------------------------------

interface BrowserCheck {
  label: string;
  ok: boolean;
  detail: string;
}

function TroubleshootTab({
  status,
  liveState,
}: {
  status: HaStatus | undefined;
  liveState: LiveConnectionState;
}) {
  const [checks, setChecks] = useState<BrowserCheck[] | null>(null);
  const [running, setRunning] = useState(false);

  const run = async () => {
    setRunning(true);
    const results: BrowserCheck[] = [];
    const timed = async (probe: () => Promise<unknown>) => {
      const started = performance.now();
      try {
        await probe();
        return { ok: true, ms: performance.now() - started, error: null as string | null };
      } catch (error) {
        return { ok: false, ms: performance.now() - started, error: errorMessage(error) ?? String(error) };
      }
    };
    const agent = await timed(probeHub);
    results.push({
      label: 'This browser reaches the hub',
      ok: agent.ok,
      detail: agent.ok
        ? `The hub answered in ${formatMs(agent.ms)}.`
        : `The hub did not answer: ${agent.error}. Check this device's network.`,
    });
    const ha = await timed(probeHaStatus);
    results.push({
      label: 'The hub answers for Home Assistant',
      ok: ha.ok,
      detail: ha.ok ? `Home Assistant's state came back in ${formatMs(ha.ms)}.` : `It failed: ${ha.error}.`,
    });
    results.push({
      label: 'Live updates reach this browser',
      ok: liveState === 'open',
      detail:
        liveState === 'open'
          ? 'The live channel is open; entity changes appear without reloading.'
          : 'The live channel is not open. A proxy between you and the hub must pass WebSocket upgrades for /api/live.',
    });
    results.push({
      label: 'The hub is connected to Home Assistant',
      ok: status?.state === 'connected',
      detail:
        status?.state === 'connected'
          ? 'Connected. If a screen still looks wrong, reload it.'
          : `Not connected (${status?.message ?? status?.state ?? 'unknown'}). Run the connection test on the Test tab.`,
    });
    setChecks(results);
    setRunning(false);
  };

  return (
    <>
      <Alert>
        <AlertTitle>Your browser never talks to Home Assistant</AlertTitle>
        <AlertDescription>
          Every request goes to the hub, and the hub talks to Home Assistant. If Home Assistant&apos;s own
          page opens on this device but the console shows it disconnected, the problem is between the hub and
          Home Assistant: run the connection test. If the console itself is slow or stale here, the checks
          below look at this browser&apos;s side.
        </AlertDescription>
      </Alert>
      <Panel title="Checks from this browser">
        <div className="grid gap-4">
          <Button className="w-fit" onClick={() => void run()} disabled={running}>
            {running ? <Spinner /> : null}
            {running ? 'Checking…' : checks ? 'Check again' : 'Run the checks'}
          </Button>
          {checks ? (
            <ul className="grid gap-2" aria-live="polite">
              {checks.map((c) => (
                <li key={c.label} className="flex items-start gap-2 text-sm">
                  {c.ok ? (
                    <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
                  ) : (
                    <XCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
                  )}
                  <div>
                    <p className="font-medium">
                      {c.label}
                      <span className="sr-only">: {c.ok ? 'yes' : 'no'}</span>
                    </p>
                    <p className="text-muted-foreground">{c.detail}</p>
                  </div>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </Panel>
    </>
  );
}

// ---- summary --------------------------------------------------------------------------------

function SummaryTab({ status }: { status: HaStatus }) {
  const entities = useQuery({ ...haEntitiesQueryOptions(), enabled: status.state === 'connected' });
  const domains = status.domains.slice(0, 12).map((d) => ({ ...d, label: domainLabel(d.domain) }));
  const areaCounts = new Map<string, number>();
  for (const e of entities.data?.entities ?? []) {
    const name = e.area?.name ?? 'No area';
    areaCounts.set(name, (areaCounts.get(name) ?? 0) + 1);
  }
  return (
    <>
      <Panel title="Your setup">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact layout="stacked" label="Location">
            {status.locationName ?? '—'}
          </Fact>
          <Fact layout="stacked" label="Home Assistant">
            {status.haVersion ?? '—'}
          </Fact>
          <Fact layout="stacked" label="Time zone">
            {status.timeZone ?? '—'}
          </Fact>
          <Fact layout="stacked" label="States">
            {status.counts.states.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="Entities">
            {status.counts.entities.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="Devices">
            {status.counts.devices.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="Areas">
            {status.counts.areas.toLocaleString()}
          </Fact>
          <Fact layout="stacked" label="Domains">
            {status.domains.length.toLocaleString()}
          </Fact>
        </dl>
      </Panel>
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="Entities by domain">
          {domains.length ? (
            <div
              role="img"
              aria-label={domains.map((d) => `${d.label}: ${d.count}`).join(', ')}
              className="h-72 w-full"
            >
              <BarChart
                data={domains}
                layout="vertical"
                responsive
                style={{ width: '100%', height: '100%' }}
                margin={{ left: 8, right: 16 }}
              >
                <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" tick={axisTick} allowDecimals={false} {...axisUnit('x', 'entities')} />
                <YAxis type="category" dataKey="label" tick={axisTick} width={110} />
                <Tooltip
                  contentStyle={{
                    background: 'var(--color-popover)',
                    border: '1px solid var(--color-border)',
                  }}
                />
                <Bar dataKey="count" name="Entities" fill="var(--color-primary)" isAnimationActive={false} />
              </BarChart>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">No entities yet.</p>
          )}
        </Panel>
        <Panel title="Entities by area">
          {areaCounts.size ? (
            <Table label="Entities by area table">
              <TableHeader>
                <TableRow>
                  <TableHead>Area</TableHead>
                  <TableHead className="text-right">Entities</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {[...areaCounts]
                  .sort((a, b) => b[1] - a[1])
                  .map(([name, count]) => (
                    <TableRow key={name}>
                      <TableCell>{name}</TableCell>
                      <TableCell className="text-right tabular-nums">{count.toLocaleString()}</TableCell>
                    </TableRow>
                  ))}
              </TableBody>
            </Table>
          ) : (
            <p className="text-sm text-muted-foreground">
              {entities.isLoading
                ? 'Loading…'
                : 'Assign areas to devices in Home Assistant to see them here.'}
            </p>
          )}
        </Panel>
      </div>
    </>
  );
}

// ---- debug ----------------------------------------------------------------------------------

function DebugTab({ status }: { status: HaStatus }) {
  const missed = status.pings.filter((p) => p.ms === null).length;
  return (
    <>
      <Panel title="Connection details">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact layout="stacked" label="State">
            {humanize(status.state)}
          </Fact>
          <Fact layout="stacked" label="Health">
            {humanize(status.health)}
          </Fact>
          <Fact layout="stacked" label="Failed attempts">
            {status.retryAttempts}
          </Fact>
          <Fact layout="stacked" label="Next attempt">
            {status.nextRetryAt ? new Date(status.nextRetryAt).toLocaleTimeString() : '—'}
          </Fact>
          <Fact layout="stacked" label="Pings kept">
            {status.pings.length} ({missed} missed)
          </Fact>
          <Fact layout="stacked" label="Last gap refill">
            {status.lastRefill
              ? `${status.lastRefill.transitions} changes of ${status.lastRefill.changedEntities} entities after ${(status.lastRefill.gapMs / 1000).toFixed(1)} s`
              : 'None yet'}
          </Fact>
          <Fact layout="stacked" label="Message">
            {status.message ?? '—'}
          </Fact>
        </dl>
      </Panel>
      <Panel title="Connection log" description="The hub's last 50 connection events, newest first.">
        {status.events.length ? (
          <Table label="Connection log table">
            <TableHeader>
              <TableRow>
                <TableHead>Time</TableHead>
                <TableHead>Event</TableHead>
                <TableHead>Details</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {[...status.events].reverse().map((e, i) => (
                <TableRow key={`${e.at}-${i}`}>
                  <TableCell className="whitespace-nowrap tabular-nums">
                    {new Date(e.at).toLocaleTimeString()}
                  </TableCell>
                  <TableCell>
                    <Badge
                      variant={
                        e.kind === 'error' || e.kind === 'auth_invalid' || e.kind === 'disconnected'
                          ? 'destructive'
                          : 'secondary'
                      }
                    >
                      {humanize(e.kind)}
                    </Badge>
                  </TableCell>
                  <TableCell>{e.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>
        )}
      </Panel>
      <Panel title="Raw status" description="What /api/ha/status answers; it never contains the token.">
        <pre
          tabIndex={0}
          aria-label="Raw status"
          className="max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs"
        >
          {JSON.stringify(status, null, 2)}
        </pre>
      </Panel>
    </>
  );
}
