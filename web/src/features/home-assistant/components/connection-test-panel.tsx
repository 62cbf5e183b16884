import { CheckCircle2, CircleDashed, Play, XCircle } from 'lucide-react';
import type { HaConnectionTestResult, HaProbeStep } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import { useConnectionTest } from '@/data/home-assistant';

const formatMs = (ms: number) => (ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`);

/** The six steps of the connection test, each with its time and, when it failed, what to do. */
export function ConnectionTestResult({ result }: { result: HaConnectionTestResult }) {
  const slowest = Math.max(1, ...result.steps.map((s) => s.durationMs ?? 0));
  const failed = result.steps.find((s) => s.status === 'failed');
  return (
    <div className="grid gap-4">
      {result.ok ? (
        <Alert variant="success">
          <CheckCircle2 aria-hidden="true" />
          <AlertTitle>
            All {result.steps.length} checks passed in {formatMs(result.totalMs)}
          </AlertTitle>
          <AlertDescription>
            The hub reaches Home Assistant{result.haVersion ? ` ${result.haVersion}` : ''}, the token is
            accepted and the registries can be read.
          </AlertDescription>
        </Alert>
      ) : (
        <Alert variant="destructive">
          <XCircle aria-hidden="true" />
          <AlertTitle>Stopped at “{failed?.label}”</AlertTitle>
          <AlertDescription>{failed?.problem}</AlertDescription>
        </Alert>
      )}
      <ol className="grid gap-2" aria-label="Connection test steps">
        {result.steps.map((step, i) => (
          <StepRow key={step.id} step={step} index={i + 1} slowest={slowest} />
        ))}
      </ol>
    </div>
  );
}

function StepRow({ step, index, slowest }: { step: HaProbeStep; index: number; slowest: number }) {
  const Icon = step.status === 'ok' ? CheckCircle2 : step.status === 'failed' ? XCircle : CircleDashed;
  const statusWord = step.status === 'ok' ? 'passed' : step.status === 'failed' ? 'failed' : 'not run';
  return (
    <li
      className={cn(
        'grid gap-2 rounded-lg border p-3',
        step.status === 'failed' && 'border-destructive/50 bg-destructive/5',
        step.status === 'skipped' && 'opacity-60',
      )}
      data-step={step.id}
      data-status={step.status}
    >
      <div className="flex items-center gap-3">
        <Icon
          aria-hidden="true"
          className={cn(
            'size-5 shrink-0',
            step.status === 'ok' && 'text-success',
            step.status === 'failed' && 'text-destructive',
            step.status === 'skipped' && 'text-muted-foreground',
          )}
        />
        <span className="font-medium">
          {index}. {step.label}
          <span className="sr-only">: {statusWord}</span>
        </span>
        <span className="ml-auto text-sm text-muted-foreground tabular-nums" data-testid="step-time">
          {step.durationMs !== null ? formatMs(step.durationMs) : '—'}
        </span>
      </div>
      {step.durationMs !== null ? (
        <div aria-hidden="true" className="ml-8 h-1 rounded-full bg-muted">
          <div
            className={cn('h-1 rounded-full', step.status === 'failed' ? 'bg-destructive' : 'bg-primary')}
            style={{ width: `${Math.max(2, (step.durationMs / slowest) * 100)}%` }}
          />
        </div>
      ) : null}
      {step.detail ? <p className="ml-8 text-sm text-muted-foreground">{step.detail}</p> : null}
      {step.problem ? (
        <div className="ml-8 grid gap-1 text-sm">
          <p className="text-destructive">{step.problem}</p>
          <p>
            <span className="font-medium">How to fix it: </span>
            {step.fix}
          </p>
        </div>
      ) : null}
    </li>
  );
}

/** Runs the test against the stored connection (or the given URL and token) and shows the steps. */
export function ConnectionTestCard({
  input,
  title = 'Connection test',
  description = 'Checks every layer between the hub and Home Assistant: DNS, TCP, HTTP, the token, the WebSocket API and a registry read.',
}: {
  input?: { url?: string; token?: string };
  title?: string;
  description?: string;
}) {
  const test = useConnectionTest();
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{title}</h2>
          </CardTitle>
          <CardDescription>
            Only an admin of this hub can run the connection test: its steps show where Home Assistant is on
            your network.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>
            <h2>{title}</h2>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <Button onClick={() => test.mutate(input ?? {})} disabled={test.isPending}>
          {test.isPending ? <Spinner /> : <Play aria-hidden="true" />}
          {test.isPending ? 'Testing…' : test.data ? 'Run again' : 'Run the test'}
        </Button>
      </CardHeader>
      <CardContent aria-live="polite">
        {test.error ? (
          <Alert variant="destructive">
            <XCircle aria-hidden="true" />
            <AlertTitle>The test could not run</AlertTitle>
            <AlertDescription>{errorMessage(test.error) ?? test.error.message}</AlertDescription>
          </Alert>
        ) : test.data ? (
          <ConnectionTestResult result={test.data} />
        ) : (
          <p className="text-sm text-muted-foreground">
            {test.isPending
              ? 'Testing each step…'
              : 'Run the test to see how far the hub gets and how long each step takes.'}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
