import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { AlertCircle, CheckCircle2, Play, Square, TerminalSquare, XCircle } from 'lucide-react';
import { PORT_PRESETS, type NetworkToolDone } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth';
import { AdminOnly } from '@/features/nexus-management/components/admin-only';
import { errorMessage } from '@/lib/request';
import { measureThroughput, runTool } from '@/data/network';
import { pageContainer } from '@/components/page-container';

type Tool = 'ping' | 'traceroute' | 'dns' | 'port' | 'discover' | 'wake' | 'throughput';

const TOOLS: { id: Tool; label: string; description: string }[] = [
  { id: 'ping', label: 'Ping', description: 'Sends ICMP echo requests and reports replies and round trips.' },
  { id: 'traceroute', label: 'Traceroute', description: 'Lists the hops to a host with tracepath.' },
  { id: 'dns', label: 'DNS lookup', description: 'Asks a resolver of your choice for a name’s records.' },
  { id: 'port', label: 'Port check', description: 'Tries a TCP connection: open, closed or no answer.' },
  {
    id: 'discover',
    label: 'Discover',
    description: 'Listens on the LAN (mDNS) for ESPHome, Home Assistant and Wyoming devices.',
  },
  {
    id: 'wake',
    label: 'Wake-on-LAN',
    description: 'Sends a magic packet that wakes a computer by its MAC address.',
  },
  {
    id: 'throughput',
    label: 'Throughput',
    description: 'Measures this browser’s link to the hub: a download and an upload, timed here.',
  },
];

const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'PTR', 'NS'] as const;

interface RunState {
  running: boolean;
  lines: string[];
  done: NetworkToolDone | null;
  error: string | null;
}
const IDLE: RunState = { running: false, lines: [], done: null, error: null };

/** /creative-networking: the hub's network tools for admins, one at a time, output streamed. */
export function CreativeNetworkingPage() {
  const { isAdmin } = useAuth();
  return (
    <div className={pageContainer('grid gap-6')}>
      <header>
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Creative Networking</h1>
        <p className="text-muted-foreground">
          Network tools run from the hub: reach a device, trace the path, look up names, check a port, find
          home devices, wake a computer, and measure the link to this browser.
        </p>
      </header>
      {isAdmin ? <Tools /> : <AdminOnly what="Running network tools from the hub" />}
    </div>
  );
}

function Tools() {
  const [tool, setTool] = useState<Tool>('ping');
  const [state, setState] = useState<RunState>(IDLE);
  const stopRef = useRef<AbortController | null>(null);

  useEffect(() => () => stopRef.current?.abort(), []);

  const start = async (
    run: (signal: AbortSignal, emit: (line: string) => void) => Promise<NetworkToolDone | null>,
  ) => {
    const stop = new AbortController();
    stopRef.current = stop;
    setState({ running: true, lines: [], done: null, error: null });
    const emit = (line: string) => setState((s) => ({ ...s, lines: [...s.lines, line].slice(-2000) }));
    try {
      const done = await run(stop.signal, emit);
      setState((s) => ({ ...s, running: false, done: done ?? s.done }));
    } catch (err) {
      if (stop.signal.aborted) {
        setState((s) => ({ ...s, running: false, error: 'Stopped.' }));
      } else {
        setState((s) => ({
          ...s,
          running: false,
          error: errorMessage(err) ?? (err instanceof Error ? err.message : 'The tool failed'),
        }));
      }
    } finally {
      if (stopRef.current === stop) stopRef.current = null;
    }
  };

  /** A hub-side tool: the streamed lines, then its done summary or error. */
  const startStreamed = (name: Exclude<Tool, 'throughput'>, body: unknown) =>
    start(async (signal, emit) => {
      let done: NetworkToolDone | null = null;
      await runTool(
        name,
        body,
        (event) => {
          if (event.type === 'line') emit(event.text);
          else if (event.type === 'done') done = event.done;
          else setState((s) => ({ ...s, error: event.message }));
        },
        signal,
      );
      return done;
    });

  const current = TOOLS.find((t) => t.id === tool)!;
  return (
    <div className="grid gap-6">
      <Tabs
        value={tool}
        className="grid gap-6"
        onValueChange={(v) => {
          if (state.running) return;
          // Each tool starts with an empty log.
          setTool(v as Tool);
          setState(IDLE);
        }}
      >
        <TabsList aria-label="Network tool" className="flex h-auto w-full flex-wrap justify-start">
          {TOOLS.map((t) => (
            <TabsTrigger
              key={t.id}
              value={t.id}
              disabled={state.running && t.id !== tool}
              className="flex-none"
            >
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>

        <TabsContent value={tool}>
          <Panel title={current.label} description={current.description} icon={TerminalSquare}>
            <ToolForm
              key={tool}
              tool={tool}
              running={state.running}
              onRun={(body) => {
                if (tool === 'throughput') {
                  const { megabytes } = body as { megabytes: number };
                  void start(async (signal, emit) => {
                    emit(`Downloading ${megabytes} MB from the hub…`);
                    const down = await measureThroughput('download', megabytes, signal);
                    emit(
                      `Download: ${down.mbps} Mbit/s (${megabytes} MB in ${(down.ms / 1000).toFixed(2)} s)`,
                    );
                    emit(`Uploading ${megabytes} MB to the hub…`);
                    const up = await measureThroughput('upload', megabytes, signal);
                    emit(`Upload: ${up.mbps} Mbit/s (${megabytes} MB in ${(up.ms / 1000).toFixed(2)} s)`);
                    return {
                      ok: true,
                      summary: `Download ${down.mbps} Mbit/s · Upload ${up.mbps} Mbit/s`,
                      data: { downloadMbps: down.mbps, uploadMbps: up.mbps },
                    };
                  });
                } else {
                  void startStreamed(tool, body);
                }
              }}
              onStop={() => stopRef.current?.abort()}
            />
            <Output state={state} />
          </Panel>
        </TabsContent>
      </Tabs>
    </div>
  );
}

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

const selectClass =
  'flex h-9 w-full rounded-md border border-input bg-background px-3 py-1 text-sm shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background';

function ToolForm({
  tool,
  running,
  onRun,
  onStop,
}: {
  tool: Tool;
  running: boolean;
  onRun: (body: unknown) => void;
  onStop: () => void;
}) {
  const [target, setTarget] = useState('');
  const [count, setCount] = useState('4');
  const [name, setName] = useState('');
  const [type, setType] = useState<(typeof DNS_TYPES)[number]>('A');
  const [resolver, setResolver] = useState('');
  const [port, setPort] = useState('8123');
  const [seconds, setSeconds] = useState('5');
  const [mac, setMac] = useState('');
  const [broadcast, setBroadcast] = useState('');
  const [megabytes, setMegabytes] = useState('20');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (running) return;
    const body =
      tool === 'ping'
        ? { target: target.trim(), count: Number(count) }
        : tool === 'traceroute'
          ? { target: target.trim() }
          : tool === 'dns'
            ? { name: name.trim(), type, ...(resolver.trim() ? { resolver: resolver.trim() } : {}) }
            : tool === 'port'
              ? { target: target.trim(), port: Number(port) }
              : tool === 'discover'
                ? { seconds: Number(seconds) }
                : tool === 'wake'
                  ? { mac: mac.trim(), ...(broadcast.trim() ? { broadcast: broadcast.trim() } : {}) }
                  : { megabytes: Number(megabytes) };
    onRun(body);
  };

  return (
    <form onSubmit={submit} className="grid gap-4" aria-label={`${tool} form`}>
      <div className="grid gap-4 sm:grid-cols-2">
        {tool === 'ping' || tool === 'traceroute' || tool === 'port' ? (
          <Field
            label="Target"
            hint="A hostname or an IP address, such as homeassistant.local or 192.168.1.10"
          >
            {(id) => (
              <Input
                id={id}
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                required
                maxLength={253}
                autoComplete="off"
                spellCheck={false}
                placeholder="homeassistant.local"
              />
            )}
          </Field>
        ) : null}
        {tool === 'ping' ? (
          <Field label="Count">
            {(id) => (
              <Input
                id={id}
                type="number"
                min={1}
                max={20}
                value={count}
                onChange={(e) => setCount(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        {tool === 'port' ? (
          <Field label="Port">
            {(id) => (
              <Input
                id={id}
                type="number"
                min={1}
                max={65535}
                required
                value={port}
                onChange={(e) => setPort(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        {tool === 'dns' ? (
          <>
            <Field label="Name" hint="A hostname, or an IP address for a PTR lookup">
              {(id) => (
                <Input
                  id={id}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  required
                  maxLength={253}
                  spellCheck={false}
                  placeholder="example.org"
                />
              )}
            </Field>
            <Field label="Record type">
              {(id) => (
                <select
                  id={id}
                  className={selectClass}
                  value={type}
                  onChange={(e) => setType(e.target.value as (typeof DNS_TYPES)[number])}
                >
                  {DNS_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Resolver" hint="An IP address, optionally with a port; empty uses the hub’s own">
              {(id) => (
                <Input
                  id={id}
                  value={resolver}
                  onChange={(e) => setResolver(e.target.value)}
                  maxLength={64}
                  spellCheck={false}
                  placeholder="1.1.1.1"
                />
              )}
            </Field>
          </>
        ) : null}
        {tool === 'discover' ? (
          <Field label="Listen for (seconds)">
            {(id) => (
              <Input
                id={id}
                type="number"
                min={1}
                max={15}
                value={seconds}
                onChange={(e) => setSeconds(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        {tool === 'wake' ? (
          <>
            <Field label="MAC address" hint="Such as 00:11:22:33:44:55">
              {(id) => (
                <Input
                  id={id}
                  value={mac}
                  onChange={(e) => setMac(e.target.value)}
                  required
                  pattern="([0-9A-Fa-f]{2}[:\-]){5}[0-9A-Fa-f]{2}"
                  spellCheck={false}
                  placeholder="00:11:22:33:44:55"
                />
              )}
            </Field>
            <Field
              label="Broadcast address"
              hint="Empty sends to 255.255.255.255; or your LAN’s, such as 192.168.1.255"
            >
              {(id) => (
                <Input
                  id={id}
                  value={broadcast}
                  onChange={(e) => setBroadcast(e.target.value)}
                  maxLength={64}
                  spellCheck={false}
                  placeholder="255.255.255.255"
                />
              )}
            </Field>
          </>
        ) : null}
        {tool === 'throughput' ? (
          <Field label="Size (MB each way)">
            {(id) => (
              <Input
                id={id}
                type="number"
                min={1}
                max={200}
                value={megabytes}
                onChange={(e) => setMegabytes(e.target.value)}
              />
            )}
          </Field>
        ) : null}
      </div>

      {tool === 'port' ? (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Presets</legend>
          <div className="flex flex-wrap gap-2">
            {PORT_PRESETS.map((p) => (
              <Button
                key={p.port}
                type="button"
                variant={Number(port) === p.port ? 'secondary' : 'outline'}
                size="sm"
                aria-pressed={Number(port) === p.port}
                onClick={() => setPort(String(p.port))}
              >
                {p.name} <span className="font-mono text-muted-foreground">{p.port}</span>
              </Button>
            ))}
          </div>
        </fieldset>
      ) : null}

      <div className="flex gap-2">
        <Button type="submit" disabled={running}>
          <Play aria-hidden="true" />
          {running ? 'Running…' : 'Run'}
        </Button>
        <Button type="button" variant="outline" disabled={!running} onClick={onStop}>
          <Square aria-hidden="true" />
          Stop
        </Button>
      </div>
    </form>
  );
}

function Output({ state }: { state: RunState }) {
  const logRef = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [state.lines.length]);
  const empty = !state.running && state.lines.length === 0 && !state.done && !state.error;
  return (
    <div className="grid gap-3">
      <pre
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-label="Tool output"
        aria-busy={state.running}
        tabIndex={0}
        className="h-72 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap"
      >
        {empty ? (
          <span className="text-muted-foreground">The output appears here.</span>
        ) : (
          state.lines.join('\n')
        )}
      </pre>
      {state.done ? (
        <p
          role="status"
          className={`flex items-center gap-2 text-sm font-medium ${state.done.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-400'}`}
        >
          {state.done.ok ? (
            <CheckCircle2 aria-hidden="true" className="size-4" />
          ) : (
            <XCircle aria-hidden="true" className="size-4" />
          )}
          <span>Summary: {state.done.summary}</span>
        </p>
      ) : null}
      {state.error ? (
        <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
          <AlertCircle aria-hidden="true" className="size-4" />
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
