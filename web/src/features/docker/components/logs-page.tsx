import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { Download, Pause, Play, ScrollText, Search } from 'lucide-react';
import { dockerLogsEventSchema, dockerLogsTopic } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { useLiveTopic } from '@/lib/live';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import { containersQueryOptions, fetchLogs, fetchLogText, LOG_BACKLOG_LINES } from '@/data/docker';
import {
  applyLiveEvent,
  emptyBuffer,
  filterLines,
  logFileName,
  withBacklog,
  type LogBuffer,
} from '../log-buffer';
import { EngineAlert } from './engine-alert';
import { StateBadge } from './state-badge';
import { pageContainer } from '@/components/page-container';

function LogView({ container }: { container: string }) {
  const { user } = useAuth();
  const [buffer, setBuffer] = useState<LogBuffer>(emptyBuffer);
  const [frozen, setFrozen] = useState<LogBuffer | null>(null);
  const [query, setQuery] = useState('');
  const [stderrOnly, setStderrOnly] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);

  // The backlog first, then the live tail: the topic subscribes only once the backlog is in.
  // (The page mounts a fresh LogView per container, so state starts empty for each.)
  useEffect(() => {
    let cancelled = false;
    fetchLogs(container, LOG_BACKLOG_LINES)
      .then((logs) => {
        if (cancelled) return;
        setBuffer(withBacklog(logs.lines));
        setReady(true);
      })
      .catch((error: unknown) => {
        if (!cancelled) setLoadError(errorMessage(error) ?? 'The logs could not be read');
      });
    return () => {
      cancelled = true;
    };
  }, [container]);

  const live = useLiveTopic(dockerLogsTopic(container), {
    enabled: ready && user !== null,
    onEvent: (data) => {
      const parsed = dockerLogsEventSchema.safeParse(data);
      if (parsed.success) setBuffer((previous) => applyLiveEvent(previous, parsed.data));
    },
  });

  const paused = frozen !== null;
  const visible = useMemo(
    () => filterLines((frozen ?? buffer).lines, { query, stderrOnly }),
    [frozen, buffer, query, stderrOnly],
  );
  const newWhilePaused = paused ? buffer.nextId - frozen.nextId : 0;

  useEffect(() => {
    if (!paused && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [visible, paused]);

  async function download() {
    try {
      const text = await fetchLogText(container);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = logFileName(container, new Date());
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast({
        title: 'Could not download the logs',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  }

  const liveLabel =
    live.error ??
    (live.state === 'open' ? (paused ? 'Paused' : 'Live') : live.state === 'idle' ? 'Loading' : 'Connecting');

  return (
    <Card>
      <CardContent className="grid gap-3 pt-6">
        <div className="flex flex-wrap items-center gap-3">
          <div className="relative w-full max-w-xs">
            <Search aria-hidden="true" className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
            <Input
              aria-label="Search the log"
              placeholder="Search…"
              className="pl-8"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="flex items-center gap-2">
            <Switch id="stderr-only" checked={stderrOnly} onCheckedChange={setStderrOnly} />
            <Label htmlFor="stderr-only">Errors only (stderr)</Label>
          </div>
          <div className="ml-auto flex flex-wrap items-center gap-2">
            <Badge
              variant={
                live.error ? 'destructive' : live.state === 'open' && !paused ? 'success' : 'secondary'
              }
              aria-live="polite"
            >
              {liveLabel}
            </Badge>
            <Button variant="outline" size="sm" onClick={() => setFrozen(paused ? null : buffer)}>
              {paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
              {paused ? `Resume${newWhilePaused > 0 ? ` (${newWhilePaused} new)` : ''}` : 'Pause'}
            </Button>
            <Button variant="outline" size="sm" onClick={() => void download()}>
              <Download aria-hidden="true" />
              Download
            </Button>
          </div>
        </div>
        {loadError ? (
          <p role="alert" className="text-sm text-destructive">
            {loadError}
          </p>
        ) : null}
        <div
          ref={scroller}
          role="log"
          aria-label={`Log of ${container}`}
          aria-live="off"
          tabIndex={0}
          className="h-[60vh] overflow-auto rounded-md border bg-muted/30 p-3 font-mono text-xs leading-5"
        >
          {!ready && !loadError ? (
            <div className="grid gap-2" aria-busy="true">
              {Array.from({ length: 8 }, (_, i) => (
                <Skeleton key={i} className="h-4 w-full" />
              ))}
            </div>
          ) : visible.length === 0 ? (
            <p className="text-muted-foreground">
              {query || stderrOnly
                ? 'No line matches the filter.'
                : 'No output yet. New lines appear here as the container writes them.'}
            </p>
          ) : (
            visible.map((line) =>
              line.kind === 'notice' ? (
                <div key={line.id} className="my-1 rounded bg-warning/10 px-2 text-warning">
                  — {line.text} —
                </div>
              ) : (
                <div
                  key={line.id}
                  data-stream={line.stream}
                  className={cn(
                    'break-all whitespace-pre-wrap',
                    line.stream === 'stderr' && 'bg-destructive/5 text-destructive',
                  )}
                >
                  {line.ts ? (
                    <span className="mr-2 text-muted-foreground select-none">{line.ts.slice(11, 19)}</span>
                  ) : null}
                  {line.text}
                </div>
              ),
            )
          )}
        </div>
        <p className="text-xs text-muted-foreground">
          The view keeps the newest {visible.length} lines shown here; Download saves the whole log the engine
          holds.
        </p>
      </CardContent>
    </Card>
  );
}

/** /nexus-logs: pick a container and follow its output live. */
export function LogsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const containers = useQuery(containersQueryOptions());
  const selected = new URLSearchParams(search).get('container') ?? '';
  const current = containers.data?.find((c) => c.name === selected);

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight md:text-3xl">
          <ScrollText aria-hidden="true" className="size-7 text-primary" />
          Nexus Logs
        </h1>
        <p className="text-muted-foreground">
          Live output of the hub&apos;s containers; errors (stderr) are highlighted.
        </p>
      </header>
      <EngineAlert />
      <div className="flex flex-wrap items-center gap-3">
        <Label htmlFor="log-container">Container</Label>
        {containers.isPending ? (
          <Skeleton className="h-9 w-64" />
        ) : (
          <Select
            value={selected || undefined}
            onValueChange={(value) => navigate(`/nexus-logs?container=${encodeURIComponent(value)}`)}
          >
            <SelectTrigger id="log-container" className="w-72" aria-label="Container">
              <SelectValue placeholder="Choose a container" />
            </SelectTrigger>
            <SelectContent>
              {(containers.data ?? []).map((c) => (
                <SelectItem key={c.id} value={c.name}>
                  {c.name} ({c.state})
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
        {current ? <StateBadge state={current.state} /> : null}
      </div>
      {containers.isLoadingError ? (
        <p role="alert" className="text-sm text-destructive">
          Couldn&apos;t load the containers: {errorMessage(containers.error)}
        </p>
      ) : (
        <RefreshError what="the containers" query={containers} />
      )}
      {selected ? (
        <LogView key={selected} container={selected} />
      ) : (
        <div className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
          Choose a container above to see its log.
        </div>
      )}
    </div>
  );
}
