import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import {
  ArrowLeft,
  ArrowRight,
  CircleCheck,
  CircleX,
  ExternalLink,
  LoaderCircle,
  RefreshCw,
} from 'lucide-react';
import {
  summarizeChecks,
  type CatalogAppView,
  type DeployEvent,
  type HaSettings,
  type SetupProgress,
  type SetupStep,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { CheckList, CheckSummaryBadges } from '@/components/check-list';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiRequestError, errorMessage } from '@/lib/request';
import { catalogQueryOptions, engineQueryOptions, streamDeploy } from '@/data/docker';
import { haSettingsQueryOptions, useSaveHaSettings } from '@/data/home-assistant';
import { useStartPull } from '@/data/llm';
import { networkCheckQueryOptions } from '@/data/setup';
import { STEP_TITLES } from '../steps';
import { StepActions, StepHeading } from './wizard-frame';

function BackButton({ onBack, disabled }: { onBack: () => void; disabled?: boolean }) {
  return (
    <Button type="button" variant="ghost" onClick={onBack} disabled={disabled}>
      <ArrowLeft aria-hidden="true" /> Back
    </Button>
  );
}

// ---- network ------------------------------------------------------------------------------------

export function NetworkStep({
  onBack,
  onContinue,
  busy,
}: {
  onBack: () => void;
  onContinue: () => void;
  busy: boolean;
}) {
  const check = useQuery(networkCheckQueryOptions());
  return (
    <>
      <StepHeading step="network">
        Can the devices in your home reach the hub, and can the hub reach what it downloads (container images
        and models)?
      </StepHeading>
      <div aria-live="polite" aria-busy={check.isFetching} className="grid gap-4">
        <RefreshError what="the network check" query={check} />
        {check.isPending ? (
          <div className="grid gap-2" aria-label="Checking the network">
            {[0, 1, 2, 3, 4].map((n) => (
              <Skeleton key={n} className="h-14 w-full" />
            ))}
          </div>
        ) : check.isLoadingError ? (
          <Alert variant="destructive">
            <CircleX aria-hidden="true" />
            <AlertTitle>The check could not run</AlertTitle>
            <AlertDescription>{errorMessage(check.error)}</AlertDescription>
          </Alert>
        ) : (
          <>
            <CheckSummaryBadges summary={summarizeChecks(check.data.checks)} />
            <CheckList checks={check.data.checks} label="Network checks" />
            {check.data.consoleUrls.length > 0 ? (
              <div className="grid gap-1 text-sm">
                <span className="font-medium">Open the console from other devices at</span>
                <ul className="flex flex-wrap gap-2">
                  {check.data.consoleUrls.map((u) => (
                    <li key={u.url}>
                      <code className="rounded bg-muted px-2 py-1 text-xs">{u.url}</code>{' '}
                      <span className="text-xs text-muted-foreground">({u.iface})</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <p className="text-sm text-muted-foreground">
              Warnings do not stop the setup: the console works on your network without the internet; only
              downloads need it.
            </p>
          </>
        )}
      </div>
      <StepActions back={<BackButton onBack={onBack} disabled={busy} />}>
        <Button variant="outline" onClick={() => void check.refetch()} disabled={check.isFetching}>
          <RefreshCw aria-hidden="true" className={check.isFetching ? 'animate-spin' : undefined} /> Check
          again
        </Button>
        <Button onClick={onContinue} disabled={busy || check.isPending}>
          Continue <ArrowRight aria-hidden="true" />
        </Button>
      </StepActions>
    </>
  );
}

// ---- Home Assistant -----------------------------------------------------------------------------

const HA_STATE_WORDS: Record<HaSettings['state'], string> = {
  not_configured: 'Not connected',
  connecting: 'Connecting',
  connected: 'Connected',
  reconnecting: 'Reconnecting',
  disconnected: 'Cannot be reached',
  auth_invalid: 'Token rejected',
};

export function HomeAssistantStep({
  onBack,
  onContinue,
  onSkip,
  busy,
}: {
  onBack: () => void;
  onContinue: () => void;
  onSkip: () => void;
  busy: boolean;
}) {
  const saveSettings = useSaveHaSettings();
  const settings = useQuery({
    ...haSettingsQueryOptions(),
    // While the agent connects, follow its state.
    refetchInterval: (query) =>
      query.state.data?.state === 'connecting' || query.state.data?.state === 'reconnecting' ? 1500 : false,
  });
  // Untouched, the field shows the stored address.
  const [typedUrl, setUrl] = useState<string | null>(null);
  const url = typedUrl ?? settings.data?.url ?? '';
  const [token, setToken] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const unavailable = settings.error instanceof ApiRequestError && settings.error.status === 404;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await saveSettings.mutateAsync({
        url: url.trim(),
        ...(token.trim() ? { token: token.trim() } : {}),
      });
      setToken('');
    } catch (e) {
      setError(errorMessage(e) ?? 'Saving failed');
    } finally {
      setSaving(false);
    }
  };

  const state = settings.data?.state;
  const connected = state === 'connected';
  return (
    <>
      <StepHeading step="home-assistant">
        Connect the hub to Home Assistant so voice commands and flows can control your devices. You need its
        address and a long-lived access token (Home Assistant: your profile → Security → Long-lived access
        tokens).
      </StepHeading>
      {unavailable ? (
        <Alert>
          <AlertDescription>
            This hub connects Home Assistant on its own screen:{' '}
            <Link href="/ha-connection-setup" className="underline">
              Home Assistant connection setup
            </Link>
            .
          </AlertDescription>
        </Alert>
      ) : settings.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : (
        <form className="grid gap-4" onSubmit={(e) => void submit(e)}>
          {settings.data ? (
            <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
              <span className="font-medium">Status:</span>
              <Badge variant={connected ? 'success' : state === 'not_configured' ? 'outline' : 'warning'}>
                {HA_STATE_WORDS[settings.data.state]}
              </Badge>
              {settings.data.url ? <span className="text-muted-foreground">{settings.data.url}</span> : null}
              {settings.data.message && !connected ? (
                <span className="w-full text-muted-foreground">{settings.data.message}</span>
              ) : null}
            </div>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-url`}>Home Assistant address</Label>
              <Input
                id={`${id}-url`}
                type="url"
                required
                placeholder="http://homeassistant.local:8123"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-token`}>Long-lived access token</Label>
              <Input
                id={`${id}-token`}
                type="password"
                autoComplete="off"
                required={!settings.data?.tokenSet}
                placeholder={settings.data?.tokenSet ? 'Stored; leave empty to keep it' : undefined}
                value={token}
                onChange={(e) => setToken(e.target.value)}
              />
            </div>
          </div>
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <div>
            <Button type="submit" variant="outline" disabled={saving}>
              {saving ? 'Connecting...' : 'Save and connect'}
            </Button>
          </div>
        </form>
      )}
      <StepActions back={<BackButton onBack={onBack} disabled={busy} />}>
        <Button variant="ghost" onClick={onSkip} disabled={busy}>
          Skip for now
        </Button>
        <Button onClick={onContinue} disabled={busy || !settings.data?.configured}>
          Continue <ArrowRight aria-hidden="true" />
        </Button>
      </StepActions>
    </>
  );
}

// ---- models and services ------------------------------------------------------------------------

interface AppProgress {
  status: 'waiting' | 'running' | 'done' | 'error';
  message: string;
  /** 0-100 over the image layers seen so far, null before any pull progress. */
  pulled: number | null;
}

function pullPercent(layers: Map<string, { current: number; total: number }>): number | null {
  let current = 0;
  let total = 0;
  for (const layer of layers.values()) {
    current += layer.current;
    total += layer.total;
  }
  return total > 0 ? Math.round((current / total) * 100) : null;
}

const SUGGESTED_MODEL = 'llama3.2:3b';

export function ServicesStep({
  timeZone,
  onBack,
  onContinue,
  onSkip,
  busy,
}: {
  timeZone: string;
  onBack: () => void;
  onContinue: (deployedAny: boolean) => void;
  onSkip: () => void;
  busy: boolean;
}) {
  const startPull = useStartPull();
  const engine = useQuery(engineQueryOptions());
  const catalog = useQuery(catalogQueryOptions());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [model, setModel] = useState(SUGGESTED_MODEL);
  const [progress, setProgress] = useState<Record<string, AppProgress>>({});
  const [running, setRunning] = useState(false);
  const [modelNote, setModelNote] = useState<string | null>(null);
  const layers = useRef(new Map<string, Map<string, { current: number; total: number }>>());
  const id = useId();

  const apps = catalog.data ?? [];
  const reachable = engine.data?.reachable ?? false;
  const deployedAny = Object.values(progress).some((p) => p.status === 'done');
  const ollamaChosen = selected.has('ollama') || apps.some((a) => a.id === 'ollama' && a.deployed);

  const toggle = (app: CatalogAppView, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(app.id);
      else next.delete(app.id);
      return next;
    });

  const update = (appId: string, change: Partial<AppProgress>) =>
    setProgress((prev) => ({
      ...prev,
      [appId]: { ...(prev[appId] ?? { status: 'waiting', message: '', pulled: null }), ...change },
    }));

  const onEvent = (appId: string) => (event: DeployEvent) => {
    switch (event.type) {
      case 'step':
        update(appId, { message: event.message });
        break;
      case 'pull': {
        const byLayer = layers.current.get(appId) ?? new Map<string, { current: number; total: number }>();
        layers.current.set(appId, byLayer);
        if (event.layer && event.total)
          byLayer.set(event.layer, { current: event.current ?? 0, total: event.total });
        update(appId, { message: `${event.image}: ${event.status}`, pulled: pullPercent(byLayer) });
        break;
      }
      case 'pulled':
        update(appId, { message: `Pulled ${event.image}`, pulled: 100 });
        break;
      case 'started':
        update(appId, { message: `Started ${event.service}` });
        break;
      case 'health':
        update(appId, { message: `${event.service}: ${event.message}` });
        break;
      case 'error':
        update(appId, { status: 'error', message: event.message });
        break;
      case 'done':
        update(appId, { status: 'done', message: `Running as stack ${event.deployment.stack}` });
        break;
      default:
        break;
    }
  };

  const deploy = async () => {
    setRunning(true);
    setModelNote(null);
    const chosen = apps.filter((a) => selected.has(a.id));
    for (const app of chosen) update(app.id, { status: 'waiting', message: 'Waiting', pulled: null });
    for (const app of chosen) {
      update(app.id, { status: 'running', message: 'Starting' });
      // Home Assistant gets the hub's time zone; every other field keeps the catalog's default.
      const settings: Record<string, string> = app.fields.some((f) => f.key === 'TZ') ? { TZ: timeZone } : {};
      try {
        await streamDeploy({ kind: 'catalog', app: app.id, settings }, onEvent(app.id));
        setProgress((prev) => {
          const current = prev[app.id];
          return current?.status === 'running'
            ? { ...prev, [app.id]: { ...current, status: 'done', message: current.message || 'Deployed' } }
            : prev;
        });
      } catch (e) {
        update(app.id, { status: 'error', message: errorMessage(e) ?? 'The deployment failed' });
      }
    }
    if (ollamaChosen && model.trim()) {
      try {
        await startPull.mutateAsync({ model: model.trim() });
        setModelNote(`Pulling ${model.trim()}: follow it on the Ollama screen.`);
      } catch (e) {
        setModelNote(
          e instanceof ApiRequestError && e.status === 404
            ? 'Pull models later on the Ollama screen.'
            : `The model could not be pulled yet: ${errorMessage(e) ?? 'unknown error'}. Try again on the Ollama screen once Ollama runs.`,
        );
      }
    }
    setRunning(false);
  };

  return (
    <>
      <StepHeading step="services">
        Choose what the hub runs. Each service is a container from the hub&apos;s catalog, started with the
        settings made for the Jetson; you can change them later on the Nexus deploy screen.
      </StepHeading>
      <RefreshError what="the catalog" query={catalog} />
      {engine.isPending || catalog.isPending ? (
        <div className="grid gap-2">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-16 w-full" />
          ))}
        </div>
      ) : !reachable ? (
        <Alert variant="warning">
          <CircleX aria-hidden="true" />
          <AlertTitle>The container engine cannot be reached</AlertTitle>
          <AlertDescription>
            {engine.data?.message ?? errorMessage(engine.error) ?? 'No answer from the Docker Engine API.'}{' '}
            Start Docker on the hub (sudo systemctl start docker) and check that the agent can use its socket,
            then open this step again; or skip it and deploy later from the Nexus deploy screen.
          </AlertDescription>
        </Alert>
      ) : catalog.isLoadingError ? (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(catalog.error)}</AlertDescription>
        </Alert>
      ) : (
        <fieldset className="grid gap-2" disabled={running}>
          <legend className="mb-2 text-sm font-medium">
            Services ({engine.data?.platform ?? 'engine'} {engine.data?.version ?? ''})
          </legend>
          {apps.map((app) => {
            const p = progress[app.id];
            return (
              <div key={app.id} className="grid gap-2 rounded-lg border p-3">
                <div className="flex items-start gap-3">
                  <Checkbox
                    id={`${id}-${app.id}`}
                    checked={selected.has(app.id)}
                    disabled={Boolean(app.deployed)}
                    onCheckedChange={(v) => toggle(app, v === true)}
                  />
                  <div className="grid flex-1 gap-1">
                    <Label htmlFor={`${id}-${app.id}`} className="flex flex-wrap gap-2">
                      {app.name}
                      {app.gpu ? <Badge variant="secondary">GPU</Badge> : null}
                      {app.deployed ? <Badge variant="success">Deployed</Badge> : null}
                    </Label>
                    <p className="text-xs text-muted-foreground">{app.description}</p>
                  </div>
                  {p?.status === 'running' ? (
                    <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-primary" />
                  ) : p?.status === 'done' ? (
                    <CircleCheck aria-label="Deployed" className="size-4 text-success" />
                  ) : p?.status === 'error' ? (
                    <CircleX aria-label="Failed" className="size-4 text-destructive" />
                  ) : null}
                </div>
                {p ? (
                  <div className="grid gap-1 pl-7" aria-live="polite">
                    {p.pulled !== null && p.status === 'running' ? (
                      <Progress value={p.pulled} aria-label={`${app.name} download`} />
                    ) : null}
                    <p
                      className={
                        p.status === 'error' ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'
                      }
                    >
                      {p.message}
                    </p>
                  </div>
                ) : null}
              </div>
            );
          })}
          {ollamaChosen ? (
            <div className="grid gap-2 pt-2 sm:max-w-sm">
              <Label htmlFor={`${id}-model`}>Model to pull into Ollama (optional)</Label>
              <Input id={`${id}-model`} value={model} onChange={(e) => setModel(e.target.value)} />
              <p className="text-xs text-muted-foreground">
                {SUGGESTED_MODEL} fits an 8 GB Orin Nano; leave it empty to choose later on the Ollama screen.
              </p>
            </div>
          ) : null}
          <div className="pt-2">
            <Button onClick={() => void deploy()} disabled={running || selected.size === 0}>
              {running
                ? 'Deploying...'
                : selected.size > 0
                  ? `Deploy ${selected.size} selected`
                  : 'Deploy selected'}
            </Button>
          </div>
          {modelNote ? <p className="text-sm text-muted-foreground">{modelNote}</p> : null}
        </fieldset>
      )}
      <StepActions back={<BackButton onBack={onBack} disabled={busy || running} />}>
        <Button variant="ghost" onClick={onSkip} disabled={busy || running}>
          Skip for now
        </Button>
        <Button onClick={() => onContinue(deployedAny)} disabled={busy || running}>
          Continue <ArrowRight aria-hidden="true" />
        </Button>
      </StepActions>
    </>
  );
}

// ---- done ---------------------------------------------------------------------------------------

export function DoneStep({ progress }: { progress: SetupProgress }) {
  const recorded: SetupStep[] = ['owner', 'hub', 'network', 'home-assistant', 'services'];
  return (
    <>
      <StepHeading step="done">
        {progress.hubName} is set up. Everything here can be changed later from the console.
      </StepHeading>
      <ul className="grid gap-2" aria-label="What was set up">
        {recorded.map((step) => {
          const skipped = progress.skipped.includes(step);
          return (
            <li key={step} className="flex items-center gap-2 text-sm">
              {skipped ? <Badge variant="outline">Skipped</Badge> : <Badge variant="success">Done</Badge>}
              {STEP_TITLES[step]}
              {step === 'hub' ? (
                <span className="text-muted-foreground">
                  : {progress.hubName}, {progress.timeZone}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="grid gap-2 text-sm">
        <span className="font-medium">Next</span>
        <ul className="ml-5 list-disc space-y-1">
          <li>
            <Link href="/jetson-check" className="underline">
              Run the Jetson check
            </Link>{' '}
            to see the board, JetPack, temperatures and power mode.
          </li>
          {progress.skipped.includes('home-assistant') ? (
            <li>
              <Link href="/ha-connection-setup" className="underline">
                Connect Home Assistant
              </Link>{' '}
              when you are ready.
            </li>
          ) : null}
          {progress.skipped.includes('services') ? (
            <li>
              <Link href="/nexus-deploy" className="underline">
                Deploy models and services
              </Link>
              .
            </li>
          ) : null}
          <li>
            <Link href="/nexus-quick-start" className="underline">
              The quick start guide
            </Link>{' '}
            explains the rest.
          </li>
        </ul>
      </div>
      <StepActions>
        <Button asChild>
          <Link href="/dashboard">
            Open the dashboard <ExternalLink aria-hidden="true" />
          </Link>
        </Button>
      </StepActions>
    </>
  );
}
