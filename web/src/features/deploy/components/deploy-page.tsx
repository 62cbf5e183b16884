import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { Boxes, Cpu, ExternalLink, FileCode2, LayoutGrid, Rocket } from 'lucide-react';
import type { CatalogAppView, CatalogField } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { useAuth } from '@/features/auth';
import {
  DeployTarget,
  FleetServices,
  HUB_PLACEMENT,
  withPlacementConstraints,
  type DeployPlacement,
} from '@/features/fleet';
import { EngineAlert } from '@/features/docker/components/engine-alert';
import { errorMessage } from '@/lib/request';
import { catalogQueryOptions } from '@/data/docker';
import { useDeployStream } from '../use-deploy-stream';
import { DeployProgressView } from './deploy-progress-view';
import { pageContainer } from '@/components/page-container';
import { StatusBadge } from '@/components/status-badge';

function SettingInput({
  field,
  value,
  onChange,
}: {
  field: CatalogField;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = `setting-${field.key}`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{field.label}</Label>
      {field.type === 'select' ? (
        <Select value={value} onValueChange={onChange}>
          <SelectTrigger id={id}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {field.options?.map((o) => (
              <SelectItem key={o.value} value={o.value}>
                {o.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : (
        <Input
          id={id}
          value={value}
          required={field.required}
          inputMode={field.type === 'port' || field.type === 'number' ? 'numeric' : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {field.help ? <p className="text-xs text-muted-foreground">{field.help}</p> : null}
    </div>
  );
}

function AppDeployDialog({ app, onClose }: { app: CatalogAppView; onClose: () => void }) {
  const [settings, setSettings] = useState<Record<string, string>>(() =>
    Object.fromEntries(app.fields.map((f) => [f.key, f.default])),
  );
  const deploy = useDeployStream();
  const running = deploy.progress?.phase === 'running';
  const [placement, setPlacement] = useState<DeployPlacement>(HUB_PLACEMENT);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (placement.target === 'hub') {
      void deploy.start({ kind: 'catalog', app: app.id, settings });
      return;
    }
    // The catalog's own endpoint deploys to this hub; to the fleet the app goes as a stack: its
    // template with the settings as its variables, and the chosen placement written in.
    try {
      const compose = await withPlacementConstraints(app.compose, placement.constraints);
      setProblem(null);
      void deploy.start({ kind: 'stack', name: app.stack, compose, variables: settings, target: 'fleet' });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !running && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            {app.deployed ? 'Apply settings to' : 'Deploy'} {app.name}
          </DialogTitle>
          <DialogDescription>
            As stack {app.stack}
            {app.gpu ? ', on the GPU (NVIDIA runtime)' : ''}. After it starts, the console checks that it
            answers.
          </DialogDescription>
        </DialogHeader>
        {deploy.progress ? (
          <div className="grid gap-4">
            <DeployProgressView progress={deploy.progress} />
            <div className="flex justify-end gap-2">
              {deploy.progress.phase === 'failed' ? (
                <Button variant="outline" onClick={deploy.reset}>
                  Back to the settings
                </Button>
              ) : null}
              <Button onClick={onClose} disabled={running}>
                Close
              </Button>
            </div>
          </div>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="grid gap-4">
            {app.fields.map((field) => (
              <SettingInput
                key={field.key}
                field={field}
                value={settings[field.key] ?? ''}
                onChange={(value) => setSettings((s) => ({ ...s, [field.key]: value }))}
              />
            ))}
            <DeployTarget value={placement} onChange={setPlacement} />
            {problem ? (
              <p role="alert" className="text-sm text-destructive">
                {problem}
              </p>
            ) : null}
            <details className="text-sm">
              <summary className="cursor-pointer text-muted-foreground">The compose template</summary>
              <pre className="mt-2 max-h-64 overflow-auto rounded-md bg-muted p-3 text-xs">{app.compose}</pre>
            </details>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit">
                <Rocket aria-hidden="true" />
                {app.deployed ? 'Apply and restart' : 'Deploy'}
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

function CatalogTab({ canAct }: { canAct: boolean }) {
  const catalog = useQuery(catalogQueryOptions());
  const [chosen, setChosen] = useState<CatalogAppView | null>(null);
  // ?app=<id> (other screens' "Deploy Ollama" and the like) opens that app's dialog once.
  const wantedId = new URLSearchParams(useSearch()).get('app');
  const [linkDismissed, setLinkDismissed] = useState(false);
  const linked = canAct && !linkDismissed ? catalog.data?.find((a) => a.id === wantedId) : undefined;
  const open = chosen ?? linked ?? null;
  const setOpen = (app: CatalogAppView | null) => {
    setChosen(app);
    setLinkDismissed(true);
  };
  if (catalog.isPending) {
    return (
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-52" />
        ))}
      </div>
    );
  }
  if (catalog.isLoadingError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Couldn&apos;t load the app catalog: {errorMessage(catalog.error)}
      </p>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-4">
      <RefreshError what="the app catalog" query={catalog} />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {catalog.data.map((app) => (
          <Card key={app.id} data-testid={`app-${app.id}`} className="flex flex-col">
            <CardHeader>
              <div className="flex flex-wrap items-center gap-2">
                <CardTitle>{app.name}</CardTitle>
                <Badge variant="secondary">{app.category}</Badge>
                {app.gpu ? (
                  <Badge variant="outline">
                    <Cpu aria-hidden="true" /> GPU
                  </Badge>
                ) : null}
              </div>
              <CardDescription>{app.description}</CardDescription>
            </CardHeader>
            <CardContent className="flex-1 text-sm">
              {app.deployed ? (
                <p>
                  Deployed as <span className="font-medium">{app.deployed.name}</span>:{' '}
                  <StatusBadge word={app.deployed.status} />
                </p>
              ) : (
                <p className="text-muted-foreground">Not deployed yet.</p>
              )}
            </CardContent>
            <CardFooter className="flex flex-wrap gap-2">
              <Button
                onClick={() => setOpen(app)}
                disabled={!canAct}
                title={canAct ? undefined : 'Only administrators can deploy'}
              >
                <Rocket aria-hidden="true" />
                {app.deployed ? 'Settings' : 'Deploy'}
              </Button>
              {app.docs ? (
                <Button asChild variant="ghost">
                  <a href={app.docs} target="_blank" rel="noreferrer">
                    Docs <ExternalLink aria-hidden="true" />
                  </a>
                </Button>
              ) : null}
            </CardFooter>
          </Card>
        ))}
      </div>
      {open ? <AppDeployDialog app={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

const EXAMPLE_COMPOSE = `services:
  web:
    image: nginx:alpine
    ports:
      - "8080:80"
    restart: unless-stopped
`;

/** KEY=VALUE per line; blank lines and # comments are skipped. */
function parseVariables(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  return out;
}

function ComposeTab({ canAct }: { canAct: boolean }) {
  const [name, setName] = useState('');
  const [compose, setCompose] = useState(EXAMPLE_COMPOSE);
  const [variables, setVariables] = useState('');
  const [placement, setPlacement] = useState<DeployPlacement>(HUB_PLACEMENT);
  const [problem, setProblem] = useState<string | null>(null);
  const deploy = useDeployStream();
  const running = deploy.progress?.phase === 'running';

  async function submit(event: FormEvent) {
    event.preventDefault();
    let sent = compose;
    try {
      // The constraints go into the compose itself (deploy.placement.constraints), so what runs is
      // what the file says, and redeploying the stored file places it the same way.
      if (placement.target === 'fleet') sent = await withPlacementConstraints(compose, placement.constraints);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return;
    }
    setProblem(null);
    void deploy.start({
      kind: 'stack',
      name,
      compose: sent,
      variables: parseVariables(variables),
      target: placement.target,
    });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form onSubmit={(e) => void submit(e)} className="grid content-start gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="stack-name">Stack name</Label>
          <Input
            id="stack-name"
            required
            value={name}
            placeholder="my-stack"
            pattern="[a-z0-9][a-z0-9_\-]*"
            title="Lowercase letters, digits, dashes and underscores"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="compose-file">Compose file</Label>
          <Textarea
            id="compose-file"
            required
            spellCheck={false}
            className="min-h-72 font-mono text-xs"
            value={compose}
            onChange={(e) => setCompose(e.target.value)}
          />
          <p className="text-xs text-muted-foreground">
            Services with image, command, environment, ports, volumes, restart, labels and depends_on, as
            docker compose reads them. Bind mounts need absolute paths.
          </p>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="compose-variables">Variables (optional)</Label>
          <Textarea
            id="compose-variables"
            spellCheck={false}
            className="min-h-20 font-mono text-xs"
            placeholder="TZ=Europe/Berlin"
            value={variables}
            onChange={(e) => setVariables(e.target.value)}
          />
        </div>
        <DeployTarget value={placement} onChange={setPlacement} disabled={!canAct} />
        {problem ? (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={!canAct || running}>
            <Rocket aria-hidden="true" />
            {running ? 'Deploying…' : 'Deploy stack'}
          </Button>
        </div>
      </form>
      <div>
        {deploy.progress ? (
          <DeployProgressView progress={deploy.progress} />
        ) : (
          <div className="rounded-lg border border-dashed p-8 text-sm text-muted-foreground">
            Progress appears here: image pulls layer by layer, then each container as it starts. If anything
            fails, what the deployment created is removed again and this says what is left.
          </div>
        )}
      </div>
    </div>
  );
}

/** /nexus-deploy, /remote-deploy, /nexus-manual, /nexus-deployment. */
export function DeployPage() {
  const { isAdmin } = useAuth();
  // /nexus-deployment opens on what is deployed on the fleet (issue 24); the others on the catalog.
  const [location] = useLocation();
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight md:text-3xl">
            <Rocket aria-hidden="true" className="size-7 text-primary" />
            Nexus Deploy
          </h1>
          <p className="text-muted-foreground">
            Install the hub&apos;s services from curated templates made for the Jetson, or deploy your own
            compose file.
          </p>
        </div>
        <Button asChild variant="outline">
          <Link href="/nexus-docker">Containers and history</Link>
        </Button>
      </header>
      {/* Said before a deploy is tried, not only after one fails with 502. */}
      <EngineAlert />
      {!isAdmin ? <p className="text-sm text-muted-foreground">Deploying needs an administrator.</p> : null}
      <Tabs defaultValue={location === '/nexus-deployment' ? 'fleet' : 'catalog'}>
        <TabsList>
          <TabsTrigger value="catalog">
            <LayoutGrid aria-hidden="true" className="size-4" /> App catalog
          </TabsTrigger>
          <TabsTrigger value="compose">
            <FileCode2 aria-hidden="true" className="size-4" /> Compose file
          </TabsTrigger>
          <TabsTrigger value="fleet">
            <Boxes aria-hidden="true" className="size-4" /> Fleet services
          </TabsTrigger>
        </TabsList>
        <TabsContent value="catalog" className="pt-4">
          <CatalogTab canAct={isAdmin} />
        </TabsContent>
        <TabsContent value="compose" className="pt-4">
          <ComposeTab canAct={isAdmin} />
        </TabsContent>
        <TabsContent value="fleet" className="pt-4">
          <FleetServices />
        </TabsContent>
      </Tabs>
    </div>
  );
}
