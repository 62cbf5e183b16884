import { useQuery } from '@tanstack/react-query';
import { Mic, Square } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'wouter';
import type { CrowdsourceUploadResult, CrowdsourceWakeWord } from '@nexus/agent/contract';
import { takeToWav } from '@/lib/audio';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiRequestError, errorMessage } from '@/lib/request';
import {
  crowdsourceListQueryOptions,
  crowdsourceQueryOptions,
  useContribute,
  useDeleteContribution,
} from '@/data/wake-words';
import { DeviceSelect } from './device-select';
import { LevelMeter, MicrophoneAlert } from './level-meter';
import { QualityDetails, VerdictBadge } from './quality';
import { useMicrophone } from './use-microphone';
import { pageContainer } from '@/components/page-container';

/** A visitor's take stops at the latest after this long. */
const MAX_CROWD_TAKE_MS = 5000;

/** /crowdsource/:wakeWord?: visitors record a wake word after agreeing to how their voice is used. */
export function CrowdsourcePage() {
  const { wakeWord } = useParams<{ wakeWord?: string }>();
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Wake Word Crowdsourcing</h1>
        <p className="text-sm text-muted-foreground">
          Lend your voice to a wake word: a few seconds of you saying it help it work for everyone.
        </p>
      </header>
      {wakeWord ? <Contribute slug={wakeWord} /> : <OpenWakeWords />}
      <DeleteContribution />
    </div>
  );
}

function OpenWakeWords() {
  const list = useQuery(crowdsourceListQueryOptions());
  if (list.isLoading) return <Skeleton className="h-24 w-full" />;
  if (list.isLoadingError) return <p className="text-sm text-destructive">{errorMessage(list.error)}</p>;
  const stale = <RefreshError what="the open wake words" query={list} />;
  if (!list.data?.length) {
    return (
      <>
        {stale}
        <Card>
          <CardContent className="p-6 text-sm text-muted-foreground">
            No wake word is collecting contributions right now. Ask the hub's owner for a link.
          </CardContent>
        </Card>
      </>
    );
  }
  return (
    <>
      {stale}
      <ul className="space-y-3" aria-label="Wake words collecting contributions">
        {list.data.map((w) => (
          <li key={w.slug}>
            <Card>
              <CardContent className="flex items-center justify-between gap-2 p-4">
                <span className="font-medium">{w.phrase}</span>
                <Button asChild size="sm">
                  <Link href={`/crowdsource/${w.slug}`}>Contribute</Link>
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}

function Contribute({ slug }: { slug: string }) {
  const info = useQuery(crowdsourceQueryOptions(slug));
  const [consented, setConsented] = useState(false);
  if (info.isLoading) return <Skeleton className="h-48 w-full" />;
  // A 404 means the owner closed it, even after it had answered; any other failed refresh keeps
  // the wake word (and a recording under way) on screen.
  const closed = info.error instanceof ApiRequestError && info.error.status === 404;
  if (closed || !info.data) {
    return (
      <Alert variant="destructive">
        <AlertTitle>This wake word is not collecting contributions</AlertTitle>
        <AlertDescription>
          {info.error instanceof ApiRequestError && info.error.status === 404
            ? 'The link may be old, or its owner has closed it.'
            : errorMessage(info.error)}{' '}
          <Link href="/crowdsource" className="underline">
            See the open ones
          </Link>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <>
      <RefreshError what="the wake word" query={info} />
      {consented ? (
        <Recorder wakeWord={info.data} />
      ) : (
        <Consent wakeWord={info.data} onAgree={() => setConsented(true)} />
      )}
    </>
  );
}

function Consent({ wakeWord, onAgree }: { wakeWord: CrowdsourceWakeWord; onAgree: () => void }) {
  const [checked, setChecked] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Before you record “{wakeWord.phrase}”</CardTitle>
        <CardDescription>Please read how your recording is used.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <section className="space-y-1">
          <h2 className="font-semibold">What is recorded</h2>
          <p>
            Only the takes you choose to send: a few seconds of audio from the microphone you pick, while the
            recording light is on. With it we keep the name you give (optional), the device name and the
            measured quality. No account, no e-mail; your address is used only to limit how often uploads can
            be made, and is not stored with the take.
          </p>
        </section>
        <section className="space-y-1">
          <h2 className="font-semibold">Licence</h2>
          <p>
            You give your takes under {wakeWord.license}, so anyone may use them to train wake-word models.
            The hub's owner reviews each take before it is used.
          </p>
        </section>
        <section className="space-y-1">
          <h2 className="font-semibold">Deletion</h2>
          <p>
            After each upload you get a deletion token. Keep it: with it you can delete your take at any time,
            below on this page. We keep only a fingerprint of the token, so we cannot give it to you again.
          </p>
        </section>
        <div className="flex items-center gap-2">
          <Checkbox id="crowd-consent" checked={checked} onCheckedChange={(v) => setChecked(v === true)} />
          <Label htmlFor="crowd-consent">I agree to record and give my takes under {wakeWord.license}.</Label>
        </div>
        <Button onClick={onAgree} disabled={!checked}>
          Continue to recording
        </Button>
      </CardContent>
    </Card>
  );
}

function Recorder({ wakeWord }: { wakeWord: CrowdsourceWakeWord }) {
  const microphone = useMicrophone();
  const contribute = useContribute(wakeWord.slug);
  const [speaker, setSpeaker] = useState('');
  const [recording, setRecording] = useState(false);
  const [results, setResults] = useState<CrowdsourceUploadResult[]>([]);
  const timer = useRef<number | null>(null);

  const start = async () => {
    const mic = microphone.mic.current ?? (await microphone.open());
    if (!mic) return;
    contribute.reset();
    mic.startTake();
    setRecording(true);
    timer.current = window.setTimeout(() => void stop(), MAX_CROWD_TAKE_MS);
  };
  const stop = async () => {
    if (timer.current) window.clearTimeout(timer.current);
    const mic = microphone.mic.current;
    if (!mic?.recording) return;
    const take = mic.stopTake();
    setRecording(false);
    const { wav } = await takeToWav(take);
    const result = await contribute
      .mutateAsync({ wav, speaker: speaker.trim() || undefined })
      .catch(() => null);
    if (result) setResults((previous) => [result, ...previous]);
  };
  const refused = contribute.error instanceof ApiRequestError && contribute.error.status === 422;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Say “{wakeWord.phrase}”</CardTitle>
        <CardDescription>
          {wakeWord.accepted} of {wakeWord.targetSamples} samples collected so far.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Progress
          value={Math.min(100, (wakeWord.accepted / wakeWord.targetSamples) * 100)}
          aria-label="Samples collected"
        />
        <div className="flex flex-wrap gap-4">
          <div className="space-y-1.5">
            <Label htmlFor="crowd-speaker">Your name (optional)</Label>
            <Input
              id="crowd-speaker"
              value={speaker}
              onChange={(e) => setSpeaker(e.target.value)}
              maxLength={80}
              className="w-56"
            />
          </div>
          <DeviceSelect
            devices={microphone.devices}
            value={microphone.deviceId}
            onChange={microphone.chooseDevice}
            id="crowd-device"
          />
        </div>
        <MicrophoneAlert error={microphone.error} />
        {microphone.settings && <LevelMeter levels={microphone.levels} settings={microphone.settings} />}
        <Button
          onClick={() => void (recording ? stop() : start())}
          variant={recording ? 'destructive' : 'default'}
          disabled={contribute.isPending}
        >
          {recording ? <Square aria-hidden="true" /> : <Mic aria-hidden="true" />}
          {recording ? 'Stop' : contribute.isPending ? 'Checking...' : 'Record'}
        </Button>
        {contribute.error && (
          <Alert variant="destructive">
            <AlertTitle>{refused ? 'That take was not accepted' : 'Upload failed'}</AlertTitle>
            <AlertDescription>{errorMessage(contribute.error)}</AlertDescription>
          </Alert>
        )}
        {results.map((result) => (
          <div key={result.deletionToken} className="space-y-2 rounded-lg border p-3">
            <div className="flex items-center gap-2">
              <VerdictBadge verdict={result.quality.verdict} />
              <span className="text-sm">Thank you: your take waits for the owner's review.</span>
            </div>
            <QualityDetails quality={result.quality} />
            <p className="text-sm">
              Deletion token (keep it to delete this take later):{' '}
              <code className="break-all rounded bg-muted px-1" data-testid="deletion-token">
                {result.deletionToken}
              </code>
            </p>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

function DeleteContribution() {
  const remove = useDeleteContribution();
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(token.trim(), { onSuccess: () => setToken('') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Delete a take</CardTitle>
        <CardDescription>Paste the deletion token you were given after uploading.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div className="space-y-1.5">
            <Label htmlFor="deletion-token">Deletion token</Label>
            <Input
              id="deletion-token"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              className="w-80"
            />
          </div>
          <Button type="submit" variant="outline" disabled={!token.trim() || remove.isPending}>
            Delete my take
          </Button>
        </form>
        {remove.isSuccess && <p className="mt-2 text-sm text-success">Your take is deleted.</p>}
        {remove.error && <p className="mt-2 text-sm text-destructive">{errorMessage(remove.error)}</p>}
      </CardContent>
    </Card>
  );
}
