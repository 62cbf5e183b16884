import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Activity, Cpu, Power, RotateCw } from 'lucide-react';
import type { CatalogAppView, ProbeResult } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { catalogQueryOptions, probeApp, useRestartContainers } from '@/data/docker';
import { ConfirmButton } from '@/components/ui/confirm';
import { EngineAlert } from './engine-alert';
import { StateBadge } from './state-badge';
import { pageContainer } from '@/components/page-container';
import { FleetOverview } from '@/features/fleet';

function containerIds(app: CatalogAppView): string[] {
  return (app.deployed?.services ?? []).flatMap((s) => (s.containerId ? [s.containerId] : []));
}

function ServiceCard({ app, canAct }: { app: CatalogAppView; canAct: boolean }) {
  const restart = useRestartContainers();
  const [probe, setProbe] = useState<ProbeResult | null>(null);
  const [probing, setProbing] = useState(false);
  const deployed = app.deployed;

  async function check() {
    setProbing(true);
    try {
      setProbe(await probeApp(app.id));
    } catch (error) {
      toast({
        title: `Could not check ${app.name}`,
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setProbing(false);
    }
  }

  return (
    <Card data-testid={`service-${app.id}`}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2">
            {app.name}
            {app.gpu ? (
              <Badge variant="outline">
                <Cpu aria-hidden="true" /> GPU
              </Badge>
            ) : null}
          </CardTitle>
          <StateBadge state={deployed ? deployed.status : 'not deployed'} />
        </div>
        <CardDescription>{app.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {deployed ? (
          <ul className="grid gap-1 text-sm">
            {deployed.services.map((s) => (
              <li key={s.containerId ?? s.service} className="flex items-center gap-2">
                <StateBadge state={s.state} />
                <span>{s.containerName}</span>
                <span className="text-xs text-muted-foreground">{s.status}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">
            Not deployed on this hub.{' '}
            <Link href="/nexus-deploy" className="text-primary underline underline-offset-4">
              Deploy it
            </Link>
            .
          </p>
        )}
        {probe ? (
          <p role="status" className={probe.ok ? 'text-sm text-success' : 'text-sm text-destructive'}>
            {probe.ok ? 'Healthy' : 'Not answering'}: {probe.target} {probe.message} ({probe.ms} ms)
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <ConfirmButton
            size="sm"
            disabled={!canAct || !deployed || containerIds(app).length === 0 || restart.isPending}
            question={`Restart ${app.name}?`}
            description={`${app.name} stops and starts again; it does not answer for a few seconds.`}
            confirmLabel="Restart"
            onConfirm={() =>
              restart.mutate(containerIds(app), {
                onSuccess: () => toast({ title: `${app.name} restarted` }),
                onError: (error) =>
                  toast({
                    title: `Could not restart ${app.name}`,
                    description: errorMessage(error),
                    variant: 'destructive',
                  }),
              })
            }
          >
            <RotateCw aria-hidden="true" className={restart.isPending ? 'animate-spin' : undefined} />
            Restart
          </ConfirmButton>
          <Button size="sm" variant="outline" disabled={!deployed || probing} onClick={() => void check()}>
            <Activity aria-hidden="true" />
            {probing ? 'Checking…' : 'Check health'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** /nexus-control: the hub's own services, restartable one by one or all together. */
export function ControlPage() {
  const { isAdmin } = useAuth();
  const catalog = useQuery(catalogQueryOptions());
  const restartAll = useRestartContainers();
  const deployedIds = (catalog.data ?? []).flatMap(containerIds);

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight md:text-3xl">
            <Power aria-hidden="true" className="size-7 text-primary" />
            Nexus Control
          </h1>
          <p className="text-muted-foreground">Restart the hub&apos;s services and check that they answer.</p>
        </div>
        <ConfirmButton
          variant="outline"
          disabled={!isAdmin || deployedIds.length === 0 || restartAll.isPending}
          question="Restart every hub service?"
          description="Each deployed service restarts in turn; voice and automations pause until they are back."
          confirmLabel="Restart all"
          onConfirm={() =>
            restartAll.mutate(deployedIds, {
              onSuccess: () => toast({ title: 'All hub services restarted' }),
              onError: (error) =>
                toast({
                  title: 'Could not restart every service',
                  description: errorMessage(error),
                  variant: 'destructive',
                }),
            })
          }
        >
          <RotateCw aria-hidden="true" className={restartAll.isPending ? 'animate-spin' : undefined} />
          Restart all services
        </ConfirmButton>
      </header>
      <EngineAlert />
      <RefreshError what="the hub's services" query={catalog} />
      {catalog.isPending ? (
        <div className="grid gap-4 md:grid-cols-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-48" />
          ))}
        </div>
      ) : catalog.isLoadingError ? (
        <p role="alert" className="text-sm text-destructive">
          Couldn&apos;t load the hub&apos;s services: {errorMessage(catalog.error)}
        </p>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {catalog.data.map((app) => (
            <ServiceCard key={app.id} app={app} canAct={isAdmin} />
          ))}
        </div>
      )}
      {/* Issue 24: the hubs as one Docker Swarm, below this hub's own services. */}
      <FleetOverview />
    </div>
  );
}
