import { LoadError, RefreshError } from '@/components/load-state';
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Boxes, Container, HardDrive, History, Layers, Rocket, Search } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { useDeployStream } from '@/features/deploy/use-deploy-stream';
import { DeployProgressView } from '@/features/deploy/components/deploy-progress-view';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import {
  containersQueryOptions,
  deploymentsQueryOptions,
  imagesQueryOptions,
  stacksQueryOptions,
  useRemoveImage,
  useStackAction,
  type StackAction,
} from '@/data/docker';
import { ConfirmButton } from '@/components/ui/confirm';
import { UpdateActivity, UpdatesToolbar } from './container-updates';
import { ContainersTable } from './containers-table';
import { EngineAlert, EngineSummary } from './engine-alert';
import { StateBadge } from './state-badge';
import { pageContainer } from '@/components/page-container';

function LoadingRows() {
  return (
    <div className="grid gap-2" aria-busy="true">
      <span className="sr-only">Loading</span>
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
      {children}
    </div>
  );
}

function ContainersTab({ canAct }: { canAct: boolean }) {
  const containers = useQuery(containersQueryOptions());
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = containers.data ?? [];
    return q
      ? list.filter((c) =>
          [c.name, c.image, c.state, c.composeProject ?? ''].some((field) => field.toLowerCase().includes(q)),
        )
      : list;
  }, [containers.data, query]);

  if (containers.isPending) return <LoadingRows />;
  if (containers.isLoadingError) return <LoadError what="the containers" error={containers.error} />;
  const running = containers.data.filter((c) => c.state === 'running').length;
  return (
    <div className="grid gap-4">
      <RefreshError what="the containers" query={containers} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted-foreground">
            {running} of {containers.data.length} running
          </p>
          {canAct && containers.data.length > 0 ? <UpdatesToolbar /> : null}
        </div>
        <div className="relative w-full max-w-xs">
          <Search aria-hidden="true" className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
          <Input
            aria-label="Filter containers"
            placeholder="Filter by name, image, state…"
            className="pl-8"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </div>
      {canAct ? <UpdateActivity /> : null}
      {containers.data.length === 0 ? (
        <Empty>
          No containers on this engine yet. Deploy the hub&apos;s services from{' '}
          <Link href="/nexus-deploy" className="text-primary underline-offset-4 hover:underline">
            Nexus Deploy
          </Link>
          .
        </Empty>
      ) : shown.length === 0 ? (
        <Empty>No container matches “{query}”.</Empty>
      ) : (
        <ContainersTable containers={shown} canAct={canAct} />
      )}
    </div>
  );
}

const STACK_ACTION_DONE: Record<StackAction, string> = {
  start: 'started',
  stop: 'stopped',
  redeploy: 'redeployed',
  remove: 'removed',
};

function StacksTab({ canAct }: { canAct: boolean }) {
  const stacks = useQuery(stacksQueryOptions());
  const action = useStackAction();
  // A redeploy pulls every image again: it streams its per-layer progress like a first deploy.
  const redeploy = useDeployStream();
  const [redeploying, setRedeploying] = useState<string | null>(null);
  const [removeVolumes, setRemoveVolumes] = useState(false);

  function run(name: string, kind: StackAction) {
    if (kind === 'redeploy') {
      setRedeploying(name);
      void redeploy.start({ kind: 'redeploy', name });
      return;
    }
    action.mutate(
      { name, action: kind, volumes: removeVolumes },
      {
        onSuccess: () => toast({ title: `Stack ${name} ${STACK_ACTION_DONE[kind]}` }),
        onError: (error) =>
          toast({
            title: `Could not ${kind} ${name}`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  if (stacks.isPending) return <LoadingRows />;
  if (stacks.isLoadingError) return <LoadError what="the stacks" error={stacks.error} />;
  const stale = <RefreshError what="the stacks" query={stacks} />;
  if (stacks.data.length === 0) {
    return (
      <div className="grid grid-cols-1 gap-3">
        {stale}
        <Empty>
          No compose stacks yet.{' '}
          <Link href="/nexus-deployment" className="text-primary underline-offset-4 hover:underline">
            Deploy one
          </Link>{' '}
          from the catalog or from a compose file.
        </Empty>
      </div>
    );
  }
  const busy = (name: string) =>
    (action.isPending && action.variables?.name === name) ||
    (redeploying === name && redeploy.progress?.phase === 'running');
  return (
    <div className="grid grid-cols-1 gap-3">
      {stale}
      {stacks.data.map((stack) => (
        <Card key={stack.name} data-testid={`stack-${stack.name}`}>
          <CardContent className="grid gap-3 pt-6">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="flex flex-wrap items-center gap-2">
                <Layers aria-hidden="true" className="size-4 text-muted-foreground" />
                <h3 className="font-semibold">{stack.name}</h3>
                <StateBadge state={stack.status} />
                <Badge variant="outline">
                  {stack.source === 'console' ? 'Deployed here' : 'Made elsewhere'}
                </Badge>
              </div>
              <div className="flex flex-wrap gap-2">
                <ConfirmButton
                  size="sm"
                  variant="outline"
                  disabled={!canAct || busy(stack.name)}
                  question={`Stop ${stack.name}?`}
                  description="Every container of the stack stops, in reverse start order."
                  confirmLabel="Stop"
                  onConfirm={() => run(stack.name, 'stop')}
                >
                  Stop
                </ConfirmButton>
                <ConfirmButton
                  size="sm"
                  variant="outline"
                  disabled={!canAct || busy(stack.name)}
                  question={`Start ${stack.name}?`}
                  description="Every container of the stack starts, dependencies first."
                  confirmLabel="Start"
                  onConfirm={() => run(stack.name, 'start')}
                >
                  Start
                </ConfirmButton>
                <ConfirmButton
                  size="sm"
                  variant="outline"
                  disabled={!canAct || busy(stack.name) || stack.source !== 'console'}
                  question={`Redeploy ${stack.name}?`}
                  description="Pulls every image again and recreates the containers. If anything fails, the previous containers are put back."
                  confirmLabel="Redeploy"
                  onConfirm={() => run(stack.name, 'redeploy')}
                >
                  Redeploy
                </ConfirmButton>
                <ConfirmButton
                  size="sm"
                  variant="destructive"
                  disabled={!canAct || busy(stack.name)}
                  destructive
                  question={`Remove ${stack.name}?`}
                  description="Its containers and network are deleted."
                  confirmLabel="Remove"
                  extra={
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={removeVolumes}
                        onChange={(e) => setRemoveVolumes(e.target.checked)}
                      />
                      Also delete its volumes (their data is lost)
                    </label>
                  }
                  onConfirm={() => run(stack.name, 'remove')}
                >
                  Remove
                </ConfirmButton>
              </div>
            </div>
            {redeploying === stack.name && redeploy.progress ? (
              <DeployProgressView progress={redeploy.progress} />
            ) : null}
            <ul className="grid gap-1 text-sm">
              {stack.services.map((s) => (
                <li key={s.containerId ?? s.service} className="flex flex-wrap items-center gap-2">
                  <StateBadge state={s.state} />
                  <span className="font-medium">{s.service}</span>
                  <span className="text-muted-foreground">{s.image}</span>
                  <span className="text-xs text-muted-foreground">{s.status}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

function ImagesTab({ canAct }: { canAct: boolean }) {
  const images = useQuery(imagesQueryOptions());
  const remove = useRemoveImage();
  if (images.isPending) return <LoadingRows />;
  if (images.isLoadingError) return <LoadError what="the images" error={images.error} />;
  const stale = <RefreshError what="the images" query={images} />;
  if (images.data.length === 0)
    return (
      <div className="grid grid-cols-1 gap-3">
        {stale}
        <Empty>No images on this engine. Deploying an app pulls its image.</Empty>
      </div>
    );
  return (
    <div className="grid grid-cols-1 gap-3">
      {stale}
      <Table aria-label="Images">
        <TableHeader>
          <TableRow>
            <TableHead>Image</TableHead>
            <TableHead>Size</TableHead>
            <TableHead>Created</TableHead>
            <TableHead>Used by</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {images.data.map((image) => {
            const label = image.tags[0] ?? image.id.replace(/^sha256:/, '').slice(0, 12);
            return (
              <TableRow key={image.id}>
                <TableCell className="font-medium">
                  {image.tags.length ? image.tags.join(', ') : label}
                </TableCell>
                <TableCell className="tabular-nums">{formatBytes(image.sizeBytes)}</TableCell>
                <TableCell>{new Date(image.createdAt).toLocaleDateString()}</TableCell>
                <TableCell>
                  {image.containers < 0
                    ? '—'
                    : `${image.containers} container${image.containers === 1 ? '' : 's'}`}
                </TableCell>
                <TableCell className="text-right">
                  <ConfirmButton
                    size="sm"
                    variant="ghost"
                    disabled={!canAct || remove.isPending}
                    destructive
                    question={`Remove ${label}?`}
                    description="The image is deleted from the hub; deploying it again pulls it from its registry."
                    confirmLabel="Remove"
                    onConfirm={() =>
                      remove.mutate(
                        { id: image.tags[0] ?? image.id, force: false },
                        {
                          onSuccess: () => toast({ title: `${label} removed` }),
                          onError: (error) =>
                            toast({
                              title: `Could not remove ${label}`,
                              description: errorMessage(error),
                              variant: 'destructive',
                            }),
                        },
                      )
                    }
                  >
                    Remove
                  </ConfirmButton>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

function HistoryTab() {
  const history = useQuery(deploymentsQueryOptions());
  if (history.isPending) return <LoadingRows />;
  if (history.isLoadingError) return <LoadError what="the deployment history" error={history.error} />;
  const stale = <RefreshError what="the deployment history" query={history} />;
  if (history.data.length === 0)
    return (
      <div className="grid grid-cols-1 gap-3">
        {stale}
        <Empty>Nothing has been deployed from the console yet.</Empty>
      </div>
    );
  return (
    <div className="grid grid-cols-1 gap-3">
      {stale}
      <Table aria-label="Deployment history">
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Stack</TableHead>
            <TableHead>What</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>Result</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {history.data.map((d) => (
            <TableRow key={d.id}>
              <TableCell className="whitespace-nowrap">{new Date(d.startedAt).toLocaleString()}</TableCell>
              <TableCell className="font-medium">{d.stack}</TableCell>
              <TableCell>{d.action}</TableCell>
              <TableCell>{d.user.name}</TableCell>
              <TableCell className="max-w-md">
                <Badge
                  variant={
                    d.result === 'success' ? 'success' : d.result === 'failed' ? 'destructive' : 'warning'
                  }
                >
                  {d.result}
                </Badge>
                {d.message ? (
                  <p className="mt-1 text-xs break-words text-muted-foreground">{d.message}</p>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** /nexus-docker: the hub's containers, stacks and images, with the deployment history. */
export function DockerPage() {
  const { isAdmin } = useAuth();
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight md:text-3xl">
            <Container aria-hidden="true" className="size-7 text-primary" />
            Nexus Docker
          </h1>
          <p className="text-muted-foreground">The containers that run the hub&apos;s services.</p>
          <EngineSummary />
        </div>
        <Button asChild>
          <Link href="/nexus-deploy">
            <Rocket aria-hidden="true" />
            Deploy an app
          </Link>
        </Button>
      </header>
      <EngineAlert />
      {!isAdmin ? (
        <p className="text-sm text-muted-foreground">
          You can look; starting, stopping, updating and removing need an administrator.
        </p>
      ) : null}
      <Tabs defaultValue="containers">
        <TabsList>
          <TabsTrigger value="containers">
            <Boxes aria-hidden="true" className="size-4" /> Containers
          </TabsTrigger>
          <TabsTrigger value="stacks">
            <Layers aria-hidden="true" className="size-4" /> Stacks
          </TabsTrigger>
          <TabsTrigger value="images">
            <HardDrive aria-hidden="true" className="size-4" /> Images
          </TabsTrigger>
          <TabsTrigger value="history">
            <History aria-hidden="true" className="size-4" /> History
          </TabsTrigger>
        </TabsList>
        <TabsContent value="containers" className="pt-4">
          <ContainersTab canAct={isAdmin} />
        </TabsContent>
        <TabsContent value="stacks" className="pt-4">
          <StacksTab canAct={isAdmin} />
        </TabsContent>
        <TabsContent value="images" className="pt-4">
          <ImagesTab canAct={isAdmin} />
        </TabsContent>
        <TabsContent value="history" className="pt-4">
          <HistoryTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
