import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Play, RotateCw, ScrollText, Square, Trash2 } from 'lucide-react';
import type { ContainerSummary } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import { statsQueryOptions, useContainerAction, type ContainerAction } from '@/data/docker';
import { ConfirmButton } from '@/components/ui/confirm';
import { TooltipProvider } from '@/components/ui/tooltip';
import { UpdateCell } from './container-updates';
import { StateBadge } from './state-badge';

function StatsCell({ container }: { container: ContainerSummary }) {
  const running = container.state === 'running';
  const stats = useQuery({ ...statsQueryOptions(container.id), enabled: running });
  if (!running) return <span className="text-muted-foreground">—</span>;
  if (!stats.data) return <span className="text-muted-foreground">reading…</span>;
  return (
    <div className="grid gap-0.5 text-xs tabular-nums">
      <span>
        <span className="sr-only">CPU </span>
        {stats.data.cpuPercent.toFixed(1)}% CPU
      </span>
      <span className="text-muted-foreground">
        {formatBytes(stats.data.memory.usageBytes)} · net ↓{formatBytes(stats.data.network.rxBytes)} ↑
        {formatBytes(stats.data.network.txBytes)}
      </span>
      <span className="text-muted-foreground">
        disk read {formatBytes(stats.data.blockIo.readBytes)} · written{' '}
        {formatBytes(stats.data.blockIo.writeBytes)}
      </span>
    </div>
  );
}

function ports(container: ContainerSummary): string {
  const published = container.ports
    .filter((p) => p.publicPort)
    .map((p) => `${p.ip && p.ip !== '0.0.0.0' ? `${p.ip}:` : ''}${p.publicPort}→${p.privatePort}/${p.type}`);
  return published.length ? published.join(', ') : '—';
}

const ACTION_TEXT: Record<
  ContainerAction,
  { done: string; title: (n: string) => string; description: string }
> = {
  start: {
    done: 'started',
    title: (n) => `Start ${n}?`,
    description: 'The container starts with its current settings.',
  },
  stop: {
    done: 'stopped',
    title: (n) => `Stop ${n}?`,
    description: 'The service it runs stops answering until the container is started again.',
  },
  restart: {
    done: 'restarted',
    title: (n) => `Restart ${n}?`,
    description: 'The container stops and starts again; its service is briefly unavailable.',
  },
  remove: {
    done: 'removed',
    title: (n) => `Remove ${n}?`,
    description:
      'The container is stopped and deleted. Data in its named volumes stays; anything else inside it is lost.',
  },
};

export function ContainersTable({ containers, canAct }: { containers: ContainerSummary[]; canAct: boolean }) {
  const action = useContainerAction();

  function run(container: ContainerSummary, kind: ContainerAction) {
    action.mutate(
      { id: container.id, action: kind },
      {
        onSuccess: () => toast({ title: `${container.name} ${ACTION_TEXT[kind].done}` }),
        onError: (error) =>
          toast({
            title: `Could not ${kind} ${container.name}`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  const busy = (c: ContainerSummary) => action.isPending && action.variables?.id === c.id;
  const why = canAct ? undefined : 'Only administrators can control containers';

  // One provider for the rows' tooltips: moving between them skips the delay (spec §9).
  return (
    <TooltipProvider>
      <Table aria-label="Containers">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>State</TableHead>
            <TableHead>Image</TableHead>
            {canAct ? <TableHead>Image updates</TableHead> : null}
            <TableHead>Ports</TableHead>
            <TableHead>Usage</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {containers.map((c) => (
            <TableRow key={c.id} data-testid={`container-row-${c.name}`}>
              <TableCell className="max-w-64">
                <div className="truncate font-medium" title={c.name}>
                  {c.name}
                </div>
                <div className="truncate text-xs text-muted-foreground">
                  {c.composeProject ? `${c.composeProject} / ${c.composeService ?? '?'}` : c.id.slice(0, 12)}
                </div>
              </TableCell>
              <TableCell>
                <div className="grid gap-1">
                  <StateBadge state={c.state} />
                  <span className="text-xs text-muted-foreground">{c.status}</span>
                </div>
              </TableCell>
              <TableCell className="max-w-56 truncate text-xs" title={c.image}>
                {c.image}
              </TableCell>
              {/* Admins only: the check names every image and registry, and the agent refuses it to members. */}
              {canAct ? (
                <TableCell>
                  <UpdateCell container={c} />
                </TableCell>
              ) : null}
              <TableCell className="text-xs">{ports(c)}</TableCell>
              <TableCell>
                <StatsCell container={c} />
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <Button asChild variant="ghost" size="icon" aria-label={`Logs of ${c.name}`} title="Logs">
                    <Link href={`/nexus-logs?container=${encodeURIComponent(c.name)}`}>
                      <ScrollText />
                    </Link>
                  </Button>
                  {c.state === 'running' ? (
                    <ConfirmButton
                      variant="ghost"
                      size="icon"
                      aria-label={`Stop ${c.name}`}
                      title={why ?? 'Stop'}
                      disabled={!canAct || busy(c)}
                      {...dialogText(c, 'stop')}
                      onConfirm={() => run(c, 'stop')}
                    >
                      <Square />
                    </ConfirmButton>
                  ) : (
                    <ConfirmButton
                      variant="ghost"
                      size="icon"
                      aria-label={`Start ${c.name}`}
                      title={why ?? 'Start'}
                      disabled={!canAct || busy(c)}
                      {...dialogText(c, 'start')}
                      onConfirm={() => run(c, 'start')}
                    >
                      <Play />
                    </ConfirmButton>
                  )}
                  <ConfirmButton
                    variant="ghost"
                    size="icon"
                    aria-label={`Restart ${c.name}`}
                    title={why ?? 'Restart'}
                    disabled={!canAct || busy(c)}
                    {...dialogText(c, 'restart')}
                    onConfirm={() => run(c, 'restart')}
                  >
                    <RotateCw className={busy(c) ? 'animate-spin' : undefined} />
                  </ConfirmButton>
                  <ConfirmButton
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${c.name}`}
                    title={why ?? 'Remove'}
                    disabled={!canAct || busy(c)}
                    destructive
                    {...dialogText(c, 'remove')}
                    onConfirm={() => run(c, 'remove')}
                  >
                    <Trash2 />
                  </ConfirmButton>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TooltipProvider>
  );
}

function dialogText(c: ContainerSummary, kind: ContainerAction) {
  const text = ACTION_TEXT[kind];
  return {
    question: text.title(c.name),
    description: text.description,
    confirmLabel: kind[0]!.toUpperCase() + kind.slice(1),
  };
}
