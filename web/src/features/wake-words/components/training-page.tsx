import { useQuery } from '@tanstack/react-query';
import { Mic, Square } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { WakeWordSample } from '@nexus/agent/contract';
import { takeToWav, type Microphone, type MicLevels } from '@/lib/audio';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/request';
import { useUploadSample, wakeWordsQueryOptions } from '@/data/wake-words';
import { DeviceSelect, deviceName } from './device-select';
import { LevelMeter, MicrophoneAlert } from './level-meter';
import { SampleRow } from './samples-panel';
import { useMicrophone } from './use-microphone';
import { pageContainer } from '@/components/page-container';

/** Seconds counted down before each take. */
export const COUNTDOWN_SECONDS = 3;
/** A take stops at the latest after this long. */
export const MAX_TAKE_MS = 4000;
/** ...or this long after the speech has ended. */
export const AUTO_STOP_SILENCE_MS = 700;
/** Speech: this far above the room's level. */
const SPEECH_OVER_FLOOR_DB = 12;
const SPEAKER_KEY = 'nexus.wakeWords.speaker';

type Phase =
  { kind: 'idle' } | { kind: 'countdown'; seconds: number } | { kind: 'recording' } | { kind: 'uploading' };

/** /wake-word-training: a guided recording session for one wake word. */
export function TrainingPage() {
  const search = new URLSearchParams(useSearch());
  const list = useQuery(wakeWordsQueryOptions());
  const [wakeWordId, setWakeWordId] = useState<number | null>(Number(search.get('wakeWord')) || null);
  const wakeWord = list.data?.find((w) => w.id === wakeWordId) ?? list.data?.[0];
  const microphone = useMicrophone();
  const [speaker, setSpeaker] = useState(() => localStorage.getItem(SPEAKER_KEY) ?? '');
  const [trim, setTrim] = useState(true);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [takes, setTakes] = useState<WakeWordSample[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const upload = useUploadSample(wakeWord?.id ?? 0);
  const levelsRef = useRef<MicLevels | null>(null);
  const stopRequested = useRef(false);
  useEffect(() => {
    levelsRef.current = microphone.levels;
  }, [microphone.levels]);

  useEffect(() => {
    if (speaker) localStorage.setItem(SPEAKER_KEY, speaker);
  }, [speaker]);

  const recordTake = async () => {
    if (!wakeWord) return;
    setNotice(null);
    const mic: Microphone | null = microphone.mic.current ?? (await microphone.open());
    if (!mic) return;
    for (let s = COUNTDOWN_SECONDS; s > 0; s--) {
      setPhase({ kind: 'countdown', seconds: s });
      await wait(1000);
    }
    setPhase({ kind: 'recording' });
    stopRequested.current = false;
    mic.startTake();
    const started = performance.now();
    let heardSpeech = false;
    let quietSince: number | null = null;
    while (performance.now() - started < MAX_TAKE_MS && !stopRequested.current) {
      await wait(50);
      const levels = levelsRef.current;
      if (!levels || levels.noiseFloorDbfs === null) continue;
      const speaking = levels.rmsDbfs > levels.noiseFloorDbfs + SPEECH_OVER_FLOOR_DB;
      if (speaking) {
        heardSpeech = true;
        quietSince = null;
      } else if (heardSpeech) {
        quietSince ??= performance.now();
        if (performance.now() - quietSince > AUTO_STOP_SILENCE_MS) break;
      }
    }
    const take = mic.stopTake();
    setPhase({ kind: 'uploading' });
    try {
      const { wav, speechFound } = await takeToWav(take, { trim });
      if (!speechFound)
        setNotice('No speech was heard in that take; it was uploaded untrimmed so you can check it.');
      const sample = await upload.mutateAsync({
        wav,
        device: deviceName(
          microphone.devices,
          microphone.settings?.deviceId,
          microphone.settings?.label ?? 'Browser microphone',
        ),
        speaker: speaker.trim() || 'Unknown speaker',
      });
      setTakes((previous) => [sample, ...previous]);
    } finally {
      setPhase({ kind: 'idle' });
    }
  };

  if (list.isLoading) {
    return (
      <div role="status" className={pageContainer('space-y-4')}>
        <span className="sr-only">Loading</span>
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Wake Word Model Training</h1>
        <p className="text-sm text-muted-foreground">
          Record the wake word again and again: after a countdown, say it once; recording stops by itself.
          Change devices, rooms, distance and voices between takes.
        </p>
      </header>

      {!list.data?.length ? (
        <Card>
          <CardContent className="p-6 text-sm text-muted-foreground">
            No wake words yet.{' '}
            <Link href="/wake-words" className="text-primary underline underline-offset-4">
              Create one on the Wake Word Training screen
            </Link>{' '}
            first.
          </CardContent>
        </Card>
      ) : (
        <>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Session</CardTitle>
              <CardDescription>
                Echo cancellation, noise suppression and automatic gain are off while recording.
              </CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <div className="flex flex-wrap gap-4">
                <div className="space-y-1.5">
                  <Label htmlFor="training-wake-word">Wake word</Label>
                  <Select value={String(wakeWord?.id ?? '')} onValueChange={(v) => setWakeWordId(Number(v))}>
                    <SelectTrigger id="training-wake-word" className="w-56">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {list.data.map((w) => (
                        <SelectItem key={w.id} value={String(w.id)}>
                          {w.phrase}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor="training-speaker">Speaker</Label>
                  <Input
                    id="training-speaker"
                    value={speaker}
                    onChange={(event) => setSpeaker(event.target.value)}
                    placeholder="Who is speaking"
                    className="w-48"
                    maxLength={80}
                  />
                </div>
                <DeviceSelect
                  devices={microphone.devices}
                  value={microphone.deviceId}
                  onChange={microphone.chooseDevice}
                />
              </div>
              <div className="flex items-center gap-2">
                <Switch id="training-trim" checked={trim} onCheckedChange={setTrim} />
                <Label htmlFor="training-trim">Trim the silence around the phrase before uploading</Label>
              </div>
              <MicrophoneAlert error={microphone.error} />
              {microphone.settings && (
                <LevelMeter levels={microphone.levels} settings={microphone.settings} />
              )}
              <Prompt phase={phase} phrase={wakeWord?.phrase ?? ''} />
              <div className="flex flex-wrap gap-2">
                {phase.kind === 'recording' ? (
                  <Button variant="destructive" onClick={() => (stopRequested.current = true)}>
                    <Square aria-hidden="true" />
                    Stop
                  </Button>
                ) : (
                  <Button
                    onClick={() => void recordTake()}
                    disabled={phase.kind !== 'idle' || microphone.opening}
                  >
                    <Mic aria-hidden="true" />
                    {takes.length ? 'Record another take' : 'Record a take'}
                  </Button>
                )}
              </div>
              {notice && <p className="text-sm text-warning">{notice}</p>}
              {upload.error && <p className="text-sm text-destructive">{errorMessage(upload.error)}</p>}
            </CardContent>
          </Card>

          {wakeWord && (
            <Card>
              <CardHeader>
                <CardTitle className="text-base">Progress</CardTitle>
                <CardDescription>
                  {wakeWord.progress.accepted} of {wakeWord.targetSamples} accepted samples of “
                  {wakeWord.phrase}”.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <Progress
                  value={wakeWord.progress.percent}
                  aria-label={`${wakeWord.progress.percent} % of the target`}
                />
              </CardContent>
            </Card>
          )}

          <section className="space-y-3" aria-label="Takes of this session">
            <h2 className="text-lg font-semibold">Takes of this session</h2>
            {takes.length === 0 ? (
              <p className="text-sm text-muted-foreground">Your takes and their quality appear here.</p>
            ) : (
              <ul className="space-y-3" aria-label="Takes">
                {takes.map((take) => (
                  <li key={take.id}>
                    <SampleRow wakeWordId={take.wakeWordId} sample={take} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function Prompt({ phase, phrase }: { phase: Phase; phrase: string }) {
  const text =
    phase.kind === 'countdown'
      ? `Get ready… ${phase.seconds}`
      : phase.kind === 'recording'
        ? `Say “${phrase}” now`
        : phase.kind === 'uploading'
          ? 'Checking the take…'
          : `Press Record, wait for the countdown, then say “${phrase}” once.`;
  return (
    <p
      aria-live="assertive"
      data-testid="training-prompt"
      className={phase.kind === 'recording' ? 'text-2xl font-semibold text-primary' : 'text-lg'}
    >
      {text}
    </p>
  );
}

function wait(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
