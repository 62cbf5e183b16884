import { StatusBadge } from '@/components/status-badge';
import { useEffect, useId, useState } from 'react';
import { useMutationState, useQuery } from '@tanstack/react-query';
import { ArrowUpCircle, Info, Loader2, RefreshCw, X } from 'lucide-react';
import type { ContainerSummary, ContainerUpdateCheck, ContainerUpdateResult } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatDuration } from '@/lib/format-duration';
import { errorMessage } from '@/lib/request';
import {
  containersQueryOptions,
  UPDATE_CONTAINER_KEY,
  updatesQueryOptions,
  useCheckUpdates,
  useUpdateContainer,
} from '@/data/docker';
import { checkForContainer, describeResult, UPDATE_STEPS, updateStep } from '../update-steps';

/**
 * Safe container updates on /nexus-docker (issue 20), for administrators: whether each container's
 * tag has a newer image, a check on demand, and the one-click update with its progress and result.
 */

/** While an update runs, the container list is read this often to tell its step. */
const STEP_POLL_MS = 1_000;

interface UpdateRun {
  mutationId: number;
  id: string;
  name: string;
  status: 'idle' | 'pending' | 'success' | 'error';
  result: ContainerUpdateResult | undefined;
  error: string | undefined;
  submittedAt: number;
}

/** Every update started in this tab (they live in react-query's mutation cache, not in a component). */
function useUpdateRuns(): UpdateRun[] {
  return useMutationState({
    filters: { mutationKey: UPDATE_CONTAINER_KEY },
    select: (m) => {
      const vars = m.state.variables as { id: string; name: string } | undefined;
      return {
        mutationId: m.mutationId,
        id: vars?.id ?? '',
        name: vars?.name ?? '',
        status: m.state.status,
        result: m.state.data as ContainerUpdateResult | undefined,
        error: m.state.error ? (errorMessage(m.state.error) ?? 'The update failed') : undefined,
        submittedAt: m.state.submittedAt,
      };
    },
  });
}

/** Whether an update of this container is running now. */
export function useIsUpdating(container: { id: string; name: string }): boolean {
  return useUpdateRuns().some(
    (r) => r.status === 'pending' && (r.id === container.id || r.name === container.name),
  );
}

/** The toolbar: "Check for updates" and when the agent last asked the registries. */
export function UpdatesToolbar() {
  const updates = useQuery(updatesQueryOptions());
  const check = useCheckUpdates();
  const checkedAt = updates.data?.checkedAt;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={() => check.mutate()}
        disabled={check.isPending}
        aria-busy={check.isPending}
      >
        {check.isPending ? <Spinner className="size-4" label="Checking" /> : <RefreshCw aria-hidden="true" />}
        {check.isPending ? 'Checking for updates…' : 'Check for updates'}
      </Button>
      <span className="text-xs text-muted-foreground" aria-live="polite">
        {check.isError ? null : checkedAt ? `Checked ${new Date(checkedAt).toLocaleString()}` : null}
      </span>
      {check.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Couldn&apos;t check for updates: {errorMessage(check.error)}
        </p>
      ) : check.isPending ? null : updates.isLoadingError ? (
        <p role="alert" className="text-sm text-destructive">
          Couldn&apos;t load the update check: {errorMessage(updates.error)}
        </p>
      ) : (
        <RefreshError what="the update check" query={updates} />
      )}
    </div>
  );
}

/** A badge whose explanation is a tooltip for the eye and a description for screen readers. */
function ExplainedBadge({
  label,
  variant,
  explanation,
}: {
  label: string;
  variant: 'secondary' | 'outline';
  explanation: string;
}) {
  const id = useId();
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Badge asChild variant={variant}>
            <button type="button" aria-describedby={id} className="cursor-help">
              {label}
              <Info aria-hidden="true" />
            </button>
          </Badge>
        </TooltipTrigger>
        <TooltipContent>{explanation}</TooltipContent>
      </Tooltip>
      <span id={id} className="sr-only">
        {explanation}
      </span>
    </>
  );
}

const HUB_EXPLANATION =
  'This container runs the hub, which cannot replace the container it runs in and watch the new one. Take a backup in Nexus management, then update it on the host (docker compose pull, then docker compose up -d).';

function UpdateStateBadge({ check }: { check: ContainerUpdateCheck }) {
  if (check.state === 'update-available') return <StatusBadge tone="warning">Update available</StatusBadge>;
  if (check.state === 'up-to-date') return <StatusBadge tone="good">Up to date</StatusBadge>;
  return (
    <ExplainedBadge
      label="Unknown"
      variant="secondary"
      explanation={check.reason ?? 'The registry could not be asked'}
    />
  );
}

/** The "Image updates" cell of a container's row. */
export function UpdateCell({ container }: { container: ContainerSummary }) {
  const updates = useQuery(updatesQueryOptions());
  const update = useUpdateContainer();
  const updating = useIsUpdating(container);
  if (updating) {
    return (
      <span className="inline-flex items-center gap-1.5 text-xs">
        <Spinner className="size-3.5 text-primary" label={`Updating ${container.name}`} />
        Updating…
      </span>
    );
  }
  if (updates.isPending) return <span className="text-xs text-muted-foreground">Checking…</span>;
  const check = checkForContainer(updates.data?.containers, container);
  if (!check) {
    return (
      <span className="text-xs text-muted-foreground">
        {updates.isLoadingError ? '—' : 'Not checked yet'}
      </span>
    );
  }
  return (
    <div className="grid justify-items-start gap-1">
      <UpdateStateBadge check={check} />
      {check.isHub ? (
        <ExplainedBadge label="Update on the host" variant="outline" explanation={HUB_EXPLANATION} />
      ) : check.state === 'update-available' ? (
        <ConfirmButton
          size="sm"
          variant="outline"
          aria-label={`Update ${container.name}`}
          question={`Update ${container.name}?`}
          description={
            <>
              The hub pulls the newest {check.image} and recreates {container.name} with the same settings
              (environment, volumes, ports, networks, restart policy). It then waits until the new container
              is healthy, or has run for 30&nbsp;s when the image has no healthcheck. If it fails, the old
              container is put back as it was. The service is unavailable for a moment while it restarts; this
              can take a few minutes.
            </>
          }
          confirmLabel="Update"
          onConfirm={() => update.mutate({ id: container.id, name: container.name })}
        >
          <ArrowUpCircle aria-hidden="true" />
          Update
        </ConfirmButton>
      ) : null}
    </div>
  );
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return <span aria-hidden="true">{formatDuration((now - since) / 1000)} so far</span>;
}

function RunningUpdate({ run, containerNames }: { run: UpdateRun; containerNames: string[] }) {
  const step = UPDATE_STEPS[updateStep(run.name, containerNames)];
  return (
    <Alert aria-label={`Updating ${run.name}`}>
      <Loader2 aria-hidden="true" className="animate-spin text-primary" />
      <AlertTitle>Updating {run.name}</AlertTitle>
      <AlertDescription className="w-full">
        <Progress indeterminate aria-label={`Update of ${run.name}`} className="my-1" />
        <p>{step}</p>
        <p className="text-xs">
          <Elapsed since={run.submittedAt} />
        </p>
      </AlertDescription>
    </Alert>
  );
}

function FinishedUpdate({ run, onDismiss }: { run: UpdateRun; onDismiss: () => void }) {
  const dismiss = (
    <Button
      variant="ghost"
      size="icon"
      className="absolute top-2 right-2 size-7"
      aria-label={`Dismiss the update result for ${run.name}`}
      onClick={onDismiss}
    >
      <X />
    </Button>
  );
  if (run.status === 'error' || !run.result) {
    return (
      <Alert variant="destructive" className="pr-10">
        <AlertTitle>Could not update {run.name}</AlertTitle>
        <AlertDescription>{run.error ?? 'The update failed'}</AlertDescription>
        {dismiss}
      </Alert>
    );
  }
  const text = describeResult(run.name, run.result);
  const rolledBack = run.result.result === 'rolled-back';
  return (
    <Alert variant={rolledBack ? 'warning' : 'success'} role="alert" className="pr-10">
      <AlertTitle>{text.title}</AlertTitle>
      <AlertDescription>{text.text}</AlertDescription>
      {dismiss}
    </Alert>
  );
}

/** Above the table: each running update's progress, then each finished one's result until dismissed. */
export function UpdateActivity() {
  const runs = useUpdateRuns();
  const [dismissed, setDismissed] = useState<ReadonlySet<number>>(new Set());
  const running = runs.some((r) => r.status === 'pending');
  // The step comes from the container list: read it more often while an update runs.
  const containers = useQuery({
    ...containersQueryOptions(),
    refetchInterval: running ? STEP_POLL_MS : false,
  });
  const names = (containers.data ?? []).map((c) => c.name);
  // The newest run per container.
  const latest = new Map<string, UpdateRun>();
  for (const run of runs) {
    const before = latest.get(run.name);
    if (!before || run.submittedAt >= before.submittedAt) latest.set(run.name, run);
  }
  const shown = [...latest.values()].filter((r) => !dismissed.has(r.mutationId));
  if (!shown.length) return null;
  return (
    <div className="grid gap-2">
      {shown.map((run) =>
        run.status === 'pending' ? (
          <RunningUpdate key={run.mutationId} run={run} containerNames={names} />
        ) : (
          <FinishedUpdate
            key={run.mutationId}
            run={run}
            onDismiss={() => setDismissed((d) => new Set([...d, run.mutationId]))}
          />
        ),
      )}
    </div>
  );
}
