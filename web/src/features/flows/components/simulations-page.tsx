import { useQuery } from '@tanstack/react-query';
import { FileAudio, Play } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { TRIGGER_LABELS, type FlowRun } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { flowsQueryOptions, runQueryOptions, useFlowRunLive, useRunFlow } from '@/data/flows';
import { builderPath } from './gallery-page';
import { parseTypedInput } from './run-panel';
import { ClipRecorder } from './clip-recorder';
import { RunView } from './run-view';
import { pageContainer } from '@/components/page-container';

const selectClass =
  'h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** /session-simulations: run a flow with typed input or a voice clip and watch each stage. */
export function SimulationsPage() {
  const flows = useQuery(flowsQueryOptions());
  const [chosen, setChosen] = useState<number | null>(null);
  const flowId = chosen ?? flows.data?.[0]?.id ?? null;
  const flow = flows.data?.find((f) => f.id === flowId);
  const [text, setText] = useState('turn on the kitchen light');
  const [clip, setClip] = useState<{ wav: Blob; label: string } | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const start = useRunFlow(flowId ?? 0);
  const runQuery = useQuery(runQueryOptions(runId ?? 0));
  const run: FlowRun | null = runId === null ? null : (runQuery.data ?? null);

  // The run's own topic: every stage change while it runs.
  useFlowRunLive(runId, run?.status !== 'succeeded' && run?.status !== 'failed');

  function simulate(withClip: boolean) {
    start.mutate(withClip && clip ? { wav: clip.wav } : { value: parseTypedInput(text) }, {
      onSuccess: (started) => setRunId(started.id),
    });
  }

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid content-start gap-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Session Simulations</h1>
        <p className="text-muted-foreground">
          Run a flow with a typed input or a recorded clip, without speaking to a satellite, and watch each
          stage.
        </p>
      </header>
      <RefreshError what="your flows" query={flows} />
      {flows.isPending ? (
        <Skeleton className="h-40" />
      ) : flows.isLoadingError ? (
        <p className="text-sm text-destructive">Could not load your flows: {flows.error.message}</p>
      ) : flows.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
          You have no flows to simulate yet.{' '}
          <Link href="/flowforge" className="text-primary underline underline-offset-4">
            Create one from a template in the gallery
          </Link>
          , then come back here.
        </p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
          <Card>
            <CardHeader>
              <CardTitle>Input</CardTitle>
              <CardDescription>Runs the flow as saved, whatever its status.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <div className="grid content-start gap-1">
                <Label htmlFor="sim-flow">Flow</Label>
                <select
                  id="sim-flow"
                  className={selectClass}
                  value={flowId ?? ''}
                  onChange={(e) => {
                    setChosen(Number(e.target.value));
                    setRunId(null);
                  }}
                >
                  {flows.data.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name} ({TRIGGER_LABELS[f.trigger.type]})
                    </option>
                  ))}
                </select>
                {flow ? (
                  <Link
                    href={builderPath(flow.id)}
                    className="text-xs text-primary underline underline-offset-4"
                  >
                    Open in the builder
                  </Link>
                ) : null}
              </div>
              <div className="grid content-start gap-1">
                <Label htmlFor="sim-text">Typed input</Label>
                <Textarea id="sim-text" rows={3} value={text} onChange={(e) => setText(e.target.value)} />
                <p className="text-xs text-muted-foreground">
                  Plain text arrives as {'{{trigger.text}}'}; JSON as it is.
                </p>
              </div>
              {flow && flow.stageKinds.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  This flow has no stages yet: add some in the builder first.
                </p>
              ) : null}
              <Button
                onClick={() => simulate(false)}
                disabled={start.isPending || flowId === null || flow?.stageKinds.length === 0}
              >
                <Play aria-hidden="true" /> Run with typed input
              </Button>
              <div className="grid content-start gap-1">
                <Label htmlFor="sim-clip">Voice clip (WAV)</Label>
                <Input
                  id="sim-clip"
                  type="file"
                  accept="audio/wav,.wav"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    setClip(file ? { wav: file, label: file.name } : null);
                  }}
                />
              </div>
              <ClipRecorder
                onClip={({ wav, durationMs }) =>
                  setClip({ wav, label: `Recording, ${(durationMs / 1000).toFixed(1)} s` })
                }
              />
              {clip ? (
                <div className="grid gap-1 text-xs text-muted-foreground">
                  <span>Clip: {clip.label}</span>
                </div>
              ) : null}
              <Button
                variant="outline"
                onClick={() => simulate(true)}
                disabled={start.isPending || !clip || flow?.stageKinds.length === 0}
              >
                <FileAudio aria-hidden="true" /> Run with the clip
              </Button>
              {start.isError ? (
                <p role="alert" className="text-sm text-destructive">
                  {start.error.message}
                </p>
              ) : null}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Stages</CardTitle>
            </CardHeader>
            <CardContent>
              {run ? (
                <RunView run={run} />
              ) : (
                <p className="text-sm text-muted-foreground">Start a run to watch each stage here.</p>
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </div>
  );
}
