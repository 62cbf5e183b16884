import { Mic, Square } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { meterPercent, microphoneSupported, openMicrophone, takeToWav, type Microphone } from '@/lib/audio';

/**
 * Records a clip from this browser's microphone as 16 kHz WAV for a voice run. Silence is left in:
 * trimming it is the flow's VAD stage's job, and the simulation should show it doing so.
 */
export function ClipRecorder({ onClip }: { onClip: (clip: { wav: Blob; durationMs: number }) => void }) {
  const [mic, setMic] = useState<Microphone | null>(null);
  const [level, setLevel] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const micRef = useRef<Microphone | null>(null);

  useEffect(
    () => () => {
      void micRef.current?.close();
    },
    [],
  );

  async function start() {
    setError(null);
    try {
      const opened = await openMicrophone(undefined, (levels) => setLevel(meterPercent(levels.rmsDbfs)));
      opened.startTake();
      micRef.current = opened;
      setMic(opened);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  async function stop() {
    if (!mic) return;
    const take = mic.stopTake();
    await mic.close();
    micRef.current = null;
    setMic(null);
    setLevel(0);
    const { wav, durationMs } = await takeToWav(take, { trim: false });
    onClip({ wav, durationMs });
  }

  if (!microphoneSupported()) {
    return (
      <p className="text-xs text-muted-foreground">
        Recording needs HTTPS (or localhost) in this browser; upload a WAV file instead.
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <div className="flex items-center gap-2">
        {mic ? (
          <Button variant="destructive" size="sm" onClick={() => void stop()}>
            <Square aria-hidden="true" /> Stop recording
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={() => void start()}>
            <Mic aria-hidden="true" /> Record a clip
          </Button>
        )}
        {mic ? (
          <div
            role="meter"
            aria-label="Microphone level"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(level)}
            className="h-2 flex-1 overflow-hidden rounded bg-muted"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${level}%` }} />
          </div>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
