import { useQuery } from '@tanstack/react-query';
import { Play, RotateCcw, Repeat } from 'lucide-react';
import { useState } from 'react';
import type { Flow, FlowRun } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import {
  runsQueryOptions,
  useRestoreVersion,
  useRunAgain,
  useRunFlow,
  versionsQueryOptions,
} from '@/data/flows';
import { useFlowRunsLive } from '@/data/flows';
import { RunStatusPill, RunView, TRIGGER_WORDS, formatMs } from './run-view';

/** Typed input: JSON when it parses, otherwise `{ text }` so a sentence can be typed as is. */
export function parseTypedInput(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return { text: trimmed };
  }
}

/** The run panel: start a run, watch it stage by stage, and the flow's recent runs with retry and replay. */
export function RunsPanel({ flow, unsaved }: { flow: Flow; unsaved: boolean }) {
  const [input, setInput] = useState('{"text": "Hello from the builder"}');
  const [selected, setSelected] = useState<number | null>(null);
  const runs = useQuery(runsQueryOptions(flow.id));
  const run = useRunFlow(flow.id);
  const again = useRunAgain(flow.id);
  useFlowRunsLive(flow.id);
  const shown: FlowRun | undefined =
    runs.data?.find((r) => r.id === selected) ?? (selected === null ? runs.data?.[0] : undefined);

  const [clip, setClip] = useState<File | null>(null);
  const isVoice = flow.trigger.type === 'voice';

  function start() {
    run.mutate(isVoice && clip ? { wav: clip } : { value: parseTypedInput(input) }, {
      onSuccess: (r) => setSelected(r.id),
      onError: (error) =>
        toast({ title: 'The run did not start', description: error.message, variant: 'destructive' }),
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Run</CardTitle>
        <CardDescription>
          Runs the saved version{unsaved ? ' (save first to run your changes)' : ''}. Stages update live.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <div className="grid content-start gap-1">
          <Label htmlFor="run-input">Trigger input</Label>
          <Textarea
            id="run-input"
            rows={3}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            aria-describedby="run-input-hint"
          />
          <p id="run-input-hint" className="text-xs text-muted-foreground">
            JSON, or plain text (sent as {'{"text": …}'}); stages read it as {'{{trigger.…}}'}.
          </p>
        </div>
        {isVoice ? (
          <div className="grid content-start gap-1">
            <Label htmlFor="run-clip">Voice clip (WAV)</Label>
            <Input
              id="run-clip"
              type="file"
              accept="audio/wav,.wav"
              onChange={(e) => setClip(e.target.files?.[0] ?? null)}
            />
            <p className="text-xs text-muted-foreground">
              With a clip the run starts from it; without, from the typed input.
            </p>
          </div>
        ) : null}
        <Button onClick={start} disabled={run.isPending || flow.stages.length === 0}>
          <Play aria-hidden="true" /> {run.isPending ? 'Starting…' : 'Run now'}
        </Button>
        {shown ? (
          <div className="grid min-w-0 gap-2">
            <RunView run={shown} />
            <div className="flex gap-2">
              {shown.status === 'failed' ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() =>
                    again.mutate({ runId: shown.id, how: 'retry' }, { onSuccess: (r) => setSelected(r.id) })
                  }
                >
                  <RotateCcw aria-hidden="true" /> Retry from the failed stage
                </Button>
              ) : null}
              {shown.status !== 'running' ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() =>
                    again.mutate({ runId: shown.id, how: 'replay' }, { onSuccess: (r) => setSelected(r.id) })
                  }
                >
                  <Repeat aria-hidden="true" /> Replay
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
        <section aria-labelledby="recent-runs" className="grid gap-2">
          <h3 id="recent-runs" className="text-sm font-medium">
            Recent runs
          </h3>
          <RefreshError what="the runs" query={runs} />
          {runs.isPending ? (
            <Skeleton className="h-16" />
          ) : runs.isLoadingError ? (
            <p className="text-sm text-destructive">{runs.error.message}</p>
          ) : runs.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No runs yet. Press Run now, or trigger the flow.</p>
          ) : (
            <ul className="grid max-h-72 gap-1 overflow-y-auto">
              {runs.data.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    onClick={() => setSelected(r.id)}
                    aria-pressed={shown?.id === r.id}
                    className="flex w-full items-center gap-2 rounded px-2 py-1 text-left text-xs hover:bg-accent aria-pressed:bg-accent"
                  >
                    <RunStatusPill status={r.status} />
                    <span>#{r.id}</span>
                    <span className="text-muted-foreground">{TRIGGER_WORDS[r.trigger]}</span>
                    <span className="ml-auto text-muted-foreground tabular-nums">
                      {new Date(r.startedAt).toLocaleTimeString()} {formatMs(r.durationMs)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

export function VersionsPanel({ flow }: { flow: Flow }) {
  const versions = useQuery(versionsQueryOptions(flow.id));
  const restore = useRestoreVersion(flow.id);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Versions</CardTitle>
        <CardDescription>
          Every save is kept; restoring saves the old one as the newest version.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <RefreshError what="the versions" query={versions} />
        {versions.isPending ? (
          <Skeleton className="h-16" />
        ) : versions.isLoadingError ? (
          <p className="text-sm text-destructive">{versions.error.message}</p>
        ) : (
          <ul className="grid max-h-60 gap-2 overflow-y-auto text-sm">
            {versions.data.map((v) => (
              <li key={v.id} className="flex items-center gap-2">
                <span className="font-medium tabular-nums">v{v.version}</span>
                <span className="grid min-w-0 flex-1">
                  <span className="truncate">{v.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {v.stageCount} stages · {new Date(v.createdAt).toLocaleString()}
                  </span>
                </span>
                {v.version === flow.version ? (
                  <span className="shrink-0 text-xs text-muted-foreground">current</span>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="shrink-0"
                    aria-label={`Restore version ${v.version}`}
                    disabled={restore.isPending}
                    onClick={() =>
                      restore.mutate(v.version, {
                        onSuccess: (f) =>
                          toast({ title: `Version ${v.version} restored as version ${f.version}` }),
                      })
                    }
                  >
                    Restore
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
