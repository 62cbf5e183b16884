import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FileAudio, Mic, MessageSquareText, Square, Volume2 } from 'lucide-react';
import { STT_ENGINE_LABELS, SYNTHESIZE_TEXT_MAX, type SpeechSettings } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { formatMs } from '../format';
import { useSynthesize, useTranscribe } from '@/data/speech';
import { startWavRecording, type WavRecording } from '../record-wav';
import { ErrorText, SpeechSection } from './speech-section';

/** Try the configured engines: a clip (uploaded or recorded) → its transcript; typed text → audio. */
export function SpeechTryIt({ settings }: { settings: SpeechSettings }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <TryTranscribe enabled={settings.stt.engine !== null} engine={settings.stt.engine} />
      <TrySynthesize enabled={settings.tts.engine !== null} />
    </div>
  );
}

function TryTranscribe({ enabled, engine }: { enabled: boolean; engine: SpeechSettings['stt']['engine'] }) {
  const transcribe = useTranscribe();
  const [recording, setRecording] = useState<WavRecording | null>(null);
  const [micError, setMicError] = useState<string | null>(null);
  const [clipUrl, setClipUrl] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => recording?.cancel(), [recording]);
  useEffect(() => () => (clipUrl ? URL.revokeObjectURL(clipUrl) : undefined), [clipUrl]);

  function send(clip: Blob) {
    setClipUrl(URL.createObjectURL(clip));
    transcribe.mutate(clip);
  }

  async function toggleRecording() {
    setMicError(null);
    if (recording) {
      setRecording(null);
      send(await recording.stop());
      return;
    }
    try {
      setRecording(await startWavRecording());
    } catch (error) {
      setMicError(
        error instanceof Error && error.name === 'NotAllowedError'
          ? 'The browser was not allowed to use the microphone.'
          : 'No microphone could be opened. Upload a WAV file instead.',
      );
    }
  }

  return (
    <SpeechSection
      title="Try speech to text"
      icon={MessageSquareText}
      description={
        engine
          ? `Transcribed by ${STT_ENGINE_LABELS[engine]}.`
          : 'Set up a speech-to-text engine above first.'
      }
    >
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant={recording ? 'destructive' : 'default'}
          disabled={!enabled || transcribe.isPending}
          onClick={() => void toggleRecording()}
          aria-pressed={recording !== null}
        >
          {recording ? <Square aria-hidden="true" /> : <Mic aria-hidden="true" />}
          {recording ? 'Stop and transcribe' : 'Record'}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={!enabled || transcribe.isPending || recording !== null}
          onClick={() => fileInput.current?.click()}
        >
          <FileAudio aria-hidden="true" />
          Upload WAV
        </Button>
        <Input
          ref={fileInput}
          type="file"
          accept="audio/wav,audio/x-wav,.wav"
          className="sr-only"
          tabIndex={-1}
          aria-label="WAV file to transcribe"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) send(file);
            e.target.value = '';
          }}
        />
        {recording ? (
          <span className="text-sm text-destructive" role="status">
            Recording…
          </span>
        ) : null}
      </div>
      {micError ? <ErrorText error={micError} /> : null}
      {clipUrl ? <audio controls src={clipUrl} className="w-full" aria-label="The clip sent" /> : null}
      <div aria-live="polite" className="grid gap-2">
        {transcribe.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Transcribing" /> Transcribing…
          </p>
        ) : null}
        {transcribe.error ? <ErrorText error={transcribe.error} prefix="Could not transcribe" /> : null}
        {transcribe.data ? (
          <div className="grid gap-1 rounded-lg border bg-muted/40 p-3" data-testid="transcript">
            <p className="text-base">
              {transcribe.data.text || <em className="text-muted-foreground">(no words heard)</em>}
            </p>
            <p className="text-xs text-muted-foreground">
              {STT_ENGINE_LABELS[transcribe.data.engine]}
              {transcribe.data.model ? ` · ${transcribe.data.model}` : ''} ·{' '}
              {formatMs(transcribe.data.durationMs)} of audio in {formatMs(transcribe.data.ms)}
            </p>
          </div>
        ) : null}
      </div>
    </SpeechSection>
  );
}

function TrySynthesize({ enabled }: { enabled: boolean }) {
  const synthesize = useSynthesize();
  const [text, setText] = useState('');
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const player = useRef<HTMLAudioElement>(null);

  useEffect(() => () => (audioUrl ? URL.revokeObjectURL(audioUrl) : undefined), [audioUrl]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    synthesize.mutate(
      { text },
      {
        onSuccess: (result) => {
          setAudioUrl(URL.createObjectURL(result.audio));
          // Play once the new source is in place.
          requestAnimationFrame(() => void player.current?.play().catch(() => undefined));
        },
      },
    );
  }

  return (
    <SpeechSection
      title="Try text to speech"
      icon={Volume2}
      description={
        enabled ? 'Spoken by the Wyoming service above.' : 'Set up a text-to-speech service above first.'
      }
    >
      <form onSubmit={submit} className="grid gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="tts-try-text">Text</Label>
          <Textarea
            id="tts-try-text"
            value={text}
            maxLength={SYNTHESIZE_TEXT_MAX}
            onChange={(e) => setText(e.target.value)}
            placeholder="The kitchen light is on."
            rows={3}
            disabled={!enabled}
          />
        </div>
        <div>
          <Button type="submit" disabled={!enabled || !text.trim() || synthesize.isPending}>
            {synthesize.isPending ? <Spinner label="Speaking" /> : <Volume2 aria-hidden="true" />}
            Speak
          </Button>
        </div>
      </form>
      <div aria-live="polite" className="grid gap-2">
        {synthesize.error ? <ErrorText error={synthesize.error} prefix="Could not speak" /> : null}
        {audioUrl && synthesize.data ? (
          <>
            <audio ref={player} controls src={audioUrl} className="w-full" aria-label="Synthesized speech" />
            <p className="text-xs text-muted-foreground">Synthesized in {formatMs(synthesize.data.ms)}</p>
          </>
        ) : null}
      </div>
    </SpeechSection>
  );
}
