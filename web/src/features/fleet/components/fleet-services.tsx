import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Boxes, ScrollText, Undo2 } from 'lucide-react';
import type { FleetService } from '@nexus/agent/contract';
import { EmptyState, LoadError, RefreshError } from '@/components/load-state';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import {
  fleetServiceLogsQueryOptions,
  fleetServicesQueryOptions,
  fleetStatusQueryOptions,
  useFleetServiceAction,
  type FleetServiceAction,
} from '@/data/fleet';
import { errorMessage } from '@/lib/request';
import { currentTasks, replicaWords, taskReason, taskTone, updateProgress } from '../fleet-logic';

function LogsDialog({ service, onClose }: { service: FleetService; onClose: () => void }) {
  const logs = useQuery(fleetServiceLogsQueryOptions(service.id));
  const hostOf = new Map(service.tasks.map((t) => [t.id, t.nodeHostname]));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>Logs of {service.name}</DialogTitle>
          <DialogDescription>
            The last 200 lines of every task, each with its task and node.
          </DialogDescription>
        </DialogHeader>
        <RefreshError what={`the logs of ${service.name}`} query={logs} />
        {logs.isPending ? (
          <Skeleton className="h-64" />
        ) : logs.isLoadingError ? (
          <LoadError what={`the logs of ${service.name}`} query={logs} />
        ) : logs.data.lines.length === 0 ? (
          <EmptyState icon={ScrollText} title="No log lines yet">
            The service&apos;s tasks have written nothing so far.
          </EmptyState>
        ) : (
          <pre
            tabIndex={0}
            aria-label={`Log lines of ${service.name}`}
            className="max-h-[60vh] overflow-auto rounded-md bg-muted p-3 font-mono text-xs"
          >
            {logs.data.lines.map((line, i) => (
              <div key={i} className={line.stream === 'stderr' ? 'text-destructive' : undefined}>
                <span className="text-muted-foreground">
                  {line.taskId ? line.taskId.slice(0, 8) : '—'}@
                  {(line.taskId && hostOf.get(line.taskId)) ?? line.nodeId?.slice(0, 8) ?? '?'}{' '}
                </span>
                {line.text}
              </div>
            ))}
          </pre>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ServiceActions({ service }: { service: FleetService }) {
  const action = useFleetServiceAction();
  const [replicas, setReplicas] = useState(String(service.replicas ?? ''));
  const [image, setImage] = useState(service.image);

  function run(request: FleetServiceAction, done: string) {
    action.mutate(
      { id: service.id, ...request },
      {
        onSuccess: () => toast({ title: done }),
        onError: (error) =>
          toast({
            title: `Could not change ${service.name}`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  function scale(event: FormEvent) {
    event.preventDefault();
    run({ action: 'scale', replicas: Number(replicas) }, `${service.name} scaled to ${replicas}`);
  }

  function update(event: FormEvent) {
    event.preventDefault();
    run({ action: 'update', image: image.trim() }, `${service.name} is updating to ${image.trim()}`);
  }

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {service.mode === 'replicated' ? (
        <form onSubmit={scale} className="flex items-end gap-2" aria-label={`Scale ${service.name}`}>
          <div className="grid flex-1 gap-1">
            <Label htmlFor={`replicas-${service.id}`}>Replicas</Label>
            <Input
              id={`replicas-${service.id}`}
              type="number"
              min={0}
              max={100}
              required
              value={replicas}
              onChange={(e) => setReplicas(e.target.value)}
            />
          </div>
          <Button type="submit" variant="outline" disabled={action.isPending}>
            Scale
          </Button>
        </form>
      ) : null}
      <form onSubmit={update} className="flex items-end gap-2" aria-label={`Update ${service.name}`}>
        <div className="grid flex-1 gap-1">
          <Label htmlFor={`image-${service.id}`}>Image</Label>
          <Input
            id={`image-${service.id}`}
            required
            spellCheck={false}
            className="font-mono text-xs"
            value={image}
            onChange={(e) => setImage(e.target.value)}
          />
        </div>
        <Button type="submit" variant="outline" disabled={action.isPending || image.trim() === service.image}>
          Update
        </Button>
      </form>
      <div>
        <ConfirmButton
          size="sm"
          variant="outline"
          disabled={!service.canRollback || action.isPending}
          title={service.canRollback ? undefined : 'The engine keeps no earlier version of this service'}
          question={`Roll ${service.name} back?`}
          description="Its tasks are replaced, one by one, with the previous image and settings."
          confirmLabel="Roll back"
          destructive
          onConfirm={() => run({ action: 'rollback' }, `${service.name} is rolling back`)}
        >
          <Undo2 aria-hidden="true" /> Roll back
        </ConfirmButton>
      </div>
    </div>
  );
}

function ServiceCard({ service, canAct }: { service: FleetService; canAct: boolean }) {
  const [showLogs, setShowLogs] = useState(false);
  const progress = updateProgress(service);
  const tasks = currentTasks(service);
  const healthy = service.replicas === null ? service.running > 0 : service.running >= service.replicas;
  return (
    <Panel
      title={service.name}
      icon={Boxes}
      description={
        <span className="font-mono text-xs break-all">
          {service.image}
          {service.stack ? ` · stack ${service.stack}` : ''}
        </span>
      }
      actions={
        <StatusBadge
          word={replicaWords(service)}
          tone={healthy ? 'good' : service.running === 0 ? 'bad' : 'warning'}
          data-testid={`replicas-${service.name}`}
        />
      }
    >
      {service.constraints.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={`Placement of ${service.name}`}>
          {service.constraints.map((c) => (
            <li key={c}>
              <Badge variant="outline" className="font-mono text-xs">
                {c}
              </Badge>
            </li>
          ))}
        </ul>
      ) : null}
      {progress ? (
        <div className="grid gap-1" data-testid={`update-${service.name}`}>
          <div className="flex items-center justify-between gap-2 text-sm">
            <StatusBadge tone={progress.tone} pulse={progress.active}>
              {progress.label}
            </StatusBadge>
            {service.updateStatus?.message ? (
              <span className="text-xs text-muted-foreground">{service.updateStatus.message}</span>
            ) : null}
          </div>
          {progress.active ? (
            progress.percent === null ? (
              <Progress indeterminate aria-label={`${progress.label} ${service.name}`} />
            ) : (
              <Progress value={progress.percent} aria-label={`${progress.label} ${service.name}`} />
            )
          ) : null}
        </div>
      ) : null}
      {tasks.length === 0 ? (
        <p className="text-sm text-muted-foreground">No tasks: scale it up to run it.</p>
      ) : (
        <table className="w-full text-sm">
          <caption className="sr-only">Tasks of {service.name}</caption>
          <thead className="text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Task
              </th>
              <th scope="col" className="py-1 pr-2 font-medium">
                Node
              </th>
              <th scope="col" className="py-1 pr-2 font-medium">
                State
              </th>
              <th scope="col" className="py-1 font-medium">
                Why
              </th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => {
              const reason = taskReason(task, service);
              return (
                <tr key={task.id} className="border-t align-top">
                  <td className="py-1 pr-2 tabular-nums">
                    {task.slot !== null ? `#${task.slot}` : task.id.slice(0, 8)}
                  </td>
                  <td className="py-1 pr-2">{task.nodeHostname ?? 'not placed'}</td>
                  <td className="py-1 pr-2">
                    <StatusBadge word={task.state} tone={taskTone(task.state)} />
                  </td>
                  <td className="py-1 text-muted-foreground" data-testid="task-reason">
                    {reason ?? ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => setShowLogs(true)}>
          <ScrollText aria-hidden="true" /> Logs<span className="sr-only"> of {service.name}</span>
        </Button>
      </div>
      {canAct ? <ServiceActions service={service} /> : null}
      {showLogs ? <LogsDialog service={service} onClose={() => setShowLogs(false)} /> : null}
    </Panel>
  );
}

function ServiceList({ canAct }: { canAct: boolean }) {
  const services = useQuery(fleetServicesQueryOptions());
  if (services.isPending) return <Skeleton className="h-48" aria-label="Loading the fleet's services" />;
  if (services.isLoadingError) return <LoadError what="the fleet's services" query={services} />;
  const sorted = [...services.data].sort(
    (a, b) => (a.stack ?? '').localeCompare(b.stack ?? '') || a.name.localeCompare(b.name),
  );
  return (
    <div className="grid grid-cols-1 gap-4">
      <RefreshError what="the fleet's services" query={services} />
      {sorted.length === 0 ? (
        <EmptyState icon={Boxes} title="No services on the fleet yet">
          Deploy a stack or a catalog app with &ldquo;The fleet&rdquo; as its target, above.
        </EmptyState>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {sorted.map((service) => (
            <ServiceCard key={service.id} service={service} canAct={canAct} />
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * /nexus-deployment's fleet section (issue 24): the swarm's services with their tasks per node,
 * why a task waits, update progress, and (admins) scale, update, rollback.
 */
export function FleetServices() {
  const { isAdmin } = useAuth();
  const status = useQuery(fleetStatusQueryOptions());
  const inFleet = status.data?.state === 'active' && status.data.canManage;
  return (
    <section aria-labelledby="fleet-services-heading" className="grid gap-3" data-testid="fleet-services">
      <h2 id="fleet-services-heading" className="text-lg font-semibold">
        Fleet services
      </h2>
      <RefreshError what="the fleet's state" query={status} />
      {status.isPending ? (
        <Skeleton className="h-24" />
      ) : status.isLoadingError ? (
        <LoadError what="the fleet's state" query={status} />
      ) : !inFleet ? (
        <EmptyState icon={Boxes} title="No fleet services here">
          {status.data.state === 'active'
            ? 'This hub is a worker: a manager hub lists the fleet’s services.'
            : 'This hub is in no fleet. Create or join one on Nexus Control, then deploy to the fleet.'}
        </EmptyState>
      ) : (
        <ServiceList canAct={isAdmin} />
      )}
    </section>
  );
}
