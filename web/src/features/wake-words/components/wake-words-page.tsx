import { useQuery } from '@tanstack/react-query';
import { Download, Mic, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'wouter';
import { DEFAULT_TARGET_SAMPLES, type WakeWord } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import {
  useCreateWakeWord,
  useDeleteWakeWord,
  useUpdateWakeWord,
  wakeWordsQueryOptions,
} from '@/data/wake-words';
import { ExportPanel } from './export-panel';
import { SamplesPanel } from './samples-panel';
import { RelatedLinks } from '@/components/related-links';
import { axisUnit } from '@/lib/chart-axis';
import { pageContainer } from '@/components/page-container';

/** /wake-words: the wake words, their progress by device and speaker, their samples and exports. */
export function WakeWordsPage() {
  const { isAdmin } = useAuth();
  const list = useQuery(wakeWordsQueryOptions());
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = list.data?.find((w) => w.id === selectedId) ?? list.data?.[0];

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Wake Word Training</h1>
        <p className="text-sm text-muted-foreground">
          Collect {DEFAULT_TARGET_SAMPLES} or more good samples of your wake word across devices and voices,
          check their quality, and get what each wake-word engine needs.{' '}
          <Link href="/mic-test" className="text-primary underline underline-offset-4">
            Test a microphone
          </Link>
        </p>
        <RelatedLinks
          links={[
            { label: 'Model training', href: '/wake-word-training' },
            { label: 'Microphone diagnostics', href: '/mic-diagnostic' },
            { label: 'Crowdsourcing', href: '/crowdsource' },
          ]}
        />
      </header>

      {isAdmin ? <CreateWakeWordForm /> : null}

      <RefreshError what="the wake words" query={list} />
      {list.isLoading ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading wake words</span>
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-28 w-full" />
        </div>
      ) : list.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load wake words</AlertTitle>
          <AlertDescription>{errorMessage(list.error)}</AlertDescription>
        </Alert>
      ) : !list.data?.length ? (
        <Card>
          <CardContent className="p-6 text-sm text-muted-foreground">
            {isAdmin
              ? 'No wake words yet. Type a phrase above, such as “hey nexus”, to start collecting samples.'
              : 'No wake words yet. Ask an admin of this hub to add one; then you can record samples of it here.'}
          </CardContent>
        </Card>
      ) : (
        <>
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Wake words">
            {list.data.map((wakeWord) => (
              <li key={wakeWord.id}>
                <WakeWordCard
                  wakeWord={wakeWord}
                  selected={wakeWord.id === selected?.id}
                  onSelect={() => setSelectedId(wakeWord.id)}
                />
              </li>
            ))}
          </ul>
          {selected && <WakeWordDetail wakeWord={selected} />}
        </>
      )}
    </div>
  );
}

function CreateWakeWordForm() {
  const create = useCreateWakeWord();
  const [phrase, setPhrase] = useState('');
  const [target, setTarget] = useState(String(DEFAULT_TARGET_SAMPLES));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { phrase, targetSamples: Number(target) || DEFAULT_TARGET_SAMPLES },
      { onSuccess: () => setPhrase('') },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">New wake word</CardTitle>
        <CardDescription>Two or three syllables that are not everyday words work best.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
          <div className="space-y-1.5">
            <Label htmlFor="wake-word-phrase">Phrase</Label>
            <Input
              id="wake-word-phrase"
              value={phrase}
              onChange={(event) => setPhrase(event.target.value)}
              placeholder="hey nexus"
              className="w-64"
              required
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="wake-word-target">Target samples</Label>
            <Input
              id="wake-word-target"
              type="number"
              min={5}
              max={10000}
              value={target}
              onChange={(event) => setTarget(event.target.value)}
              className="w-28"
            />
          </div>
          <Button type="submit" disabled={create.isPending || !phrase.trim()}>
            {create.isPending ? 'Creating...' : 'Create'}
          </Button>
        </form>
        {create.error && <p className="mt-2 text-sm text-destructive">{errorMessage(create.error)}</p>}
      </CardContent>
    </Card>
  );
}

function WakeWordCard({
  wakeWord,
  selected,
  onSelect,
}: {
  wakeWord: WakeWord;
  selected: boolean;
  onSelect: () => void;
}) {
  const { isAdmin } = useAuth();
  const update = useUpdateWakeWord(wakeWord.id);
  const remove = useDeleteWakeWord();
  const { progress } = wakeWord;
  return (
    <Card className={selected ? 'border-primary' : undefined}>
      <CardHeader className="flex flex-row items-start justify-between gap-2 space-y-0">
        <div className="space-y-1">
          <CardTitle className="text-lg">
            <button
              type="button"
              onClick={onSelect}
              className="text-left hover:underline"
              aria-pressed={selected}
            >
              {wakeWord.phrase}
            </button>
          </CardTitle>
          <CardDescription>
            {progress.accepted} of {wakeWord.targetSamples} accepted · {progress.pending} to review ·{' '}
            {progress.rejected} rejected
          </CardDescription>
        </div>
        {isAdmin && (
          <ConfirmButton
            destructive
            variant="ghost"
            size="icon"
            aria-label={`Delete ${wakeWord.phrase}`}
            disabled={remove.isPending}
            question={`Delete “${wakeWord.phrase}”?`}
            description="The wake word and all its samples are deleted from the hub. Models already trained from them keep working."
            confirmLabel="Delete"
            onConfirm={() => remove.mutate(wakeWord.id)}
          >
            <Trash2 aria-hidden="true" />
          </ConfirmButton>
        )}
      </CardHeader>
      <CardContent className="space-y-3">
        <Progress
          value={progress.percent}
          aria-label={`${wakeWord.phrase}: ${progress.percent} % of the target`}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button asChild size="sm">
            <Link href={`/wake-word-training?wakeWord=${wakeWord.id}`}>
              <Mic aria-hidden="true" />
              Record samples
            </Link>
          </Button>
          {isAdmin && (
            <div className="flex items-center gap-2">
              <Switch
                id={`crowd-${wakeWord.id}`}
                checked={wakeWord.crowdsourcing}
                disabled={update.isPending}
                onCheckedChange={(checked) => update.mutate({ crowdsourcing: checked })}
              />
              <Label htmlFor={`crowd-${wakeWord.id}`}>Open to crowdsourcing</Label>
            </div>
          )}
          {wakeWord.crowdsourcing && (
            <Link
              href={`/crowdsource/${wakeWord.slug}`}
              className="text-sm text-primary underline underline-offset-4"
            >
              /crowdsource/{wakeWord.slug}
            </Link>
          )}
        </div>
        {(update.error || remove.error) && (
          <p className="text-sm text-destructive">{errorMessage(update.error ?? remove.error)}</p>
        )}
      </CardContent>
    </Card>
  );
}

function WakeWordDetail({ wakeWord }: { wakeWord: WakeWord }) {
  const { isAdmin } = useAuth();
  const chart = (groups: WakeWord['progress']['byDevice']) =>
    groups.map((group) => ({
      name: group.name,
      Accepted: group.accepted,
      'To review': group.pending,
      Rejected: group.rejected,
    }));
  return (
    <section className="space-y-6" aria-label={`${wakeWord.phrase} details`}>
      <div className="grid gap-4 lg:grid-cols-2">
        <ProgressChart title="Progress by device" data={chart(wakeWord.progress.byDevice)} />
        <ProgressChart title="Progress by speaker" data={chart(wakeWord.progress.bySpeaker)} />
      </div>
      <SamplesPanel wakeWord={wakeWord} />
      {/* The dataset holds every speaker's voice: the agent serves it to admins only. */}
      {isAdmin && (
        <Card>
          <CardHeader className="flex flex-row items-center justify-between gap-2 space-y-0">
            <div>
              <CardTitle className="text-base">Dataset</CardTitle>
              <CardDescription>
                The {wakeWord.progress.accepted} accepted samples as 16 kHz 16-bit mono WAV, with a CSV and
                JSON manifest of device, speaker and quality.
              </CardDescription>
            </div>
            <Button asChild variant="outline" disabled={wakeWord.progress.accepted === 0}>
              <a href={`/api/wake-words/${wakeWord.id}/dataset`} download>
                <Download aria-hidden="true" />
                Download dataset
              </a>
            </Button>
          </CardHeader>
        </Card>
      )}
      <ExportPanel wakeWord={wakeWord} />
    </section>
  );
}

type ChartRow = { name: string; Accepted: number; 'To review': number; Rejected: number };

function ProgressChart({ title, data }: { title: string; data: ChartRow[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No samples yet: record some to see them here.</p>
        ) : (
          <div
            className="h-56"
            role="img"
            aria-label={`${title}: ${data.map((d) => `${d.name} ${d.Accepted} accepted`).join(', ')}`}
          >
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data} layout="vertical" margin={{ left: 16 }}>
                <CartesianGrid strokeDasharray="3 3" className="stroke-border" />
                <XAxis
                  type="number"
                  allowDecimals={false}
                  tick={{ fontSize: 12 }}
                  {...axisUnit('x', 'samples')}
                />
                <YAxis type="category" dataKey="name" width={120} tick={{ fontSize: 12 }} />
                <Tooltip />
                <Legend />
                <Bar dataKey="Accepted" stackId="a" fill="var(--color-success)" />
                <Bar dataKey="To review" stackId="a" fill="var(--color-warning)" />
                <Bar dataKey="Rejected" stackId="a" fill="var(--color-destructive)" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
