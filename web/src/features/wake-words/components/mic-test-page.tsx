import { Mic, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import { takeToWav } from '@/lib/audio';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DeviceSelect } from './device-select';
import { LevelMeter, MicrophoneAlert } from './level-meter';
import { useMicrophone } from './use-microphone';
import { pageContainer } from '@/components/page-container';

/** The longest take the test keeps. */
const MAX_TEST_TAKE_MS = 10_000;

/** /mic-test: one microphone's live level, noise floor, sample rate and clipping, and a take to play back. */
export function MicTestPage() {
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Microphone Test</h1>
        <p className="text-sm text-muted-foreground">
          Open a microphone, watch its level and the room's noise floor, then record a short take and play it
          back.
        </p>
      </header>
      <MicrophoneCheck />
    </div>
  );
}

/** /mic-diagnostic: every recording device of this browser, each with its own check. */
export function MicDiagnosticPage() {
  const microphone = useMicrophone();
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Microphone Diagnostics</h1>
        <p className="text-sm text-muted-foreground">
          The recording devices this browser can use. Allow the microphone once to see their names, then check
          each.
        </p>
      </header>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Recording devices ({microphone.devices.length})</CardTitle>
        </CardHeader>
        <CardContent>
          {microphone.devices.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              No recording device found. Plug one in, or allow the microphone below.
            </p>
          ) : (
            <ul className="divide-y" aria-label="Recording devices">
              {microphone.devices.map((device, index) => (
                <li
                  key={device.deviceId || index}
                  className="flex items-center justify-between gap-2 py-2 text-sm"
                >
                  <span>
                    {device.label || `Microphone ${index + 1} (name hidden until the microphone is allowed)`}
                  </span>
                  {device.deviceId === 'default' && <Badge variant="outline">Default</Badge>}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <MicrophoneCheck />
    </div>
  );
}

function MicrophoneCheck() {
  const microphone = useMicrophone();
  const [recording, setRecording] = useState(false);
  const [playback, setPlayback] = useState<{ url: string; seconds: number; clippingPercent: number } | null>(
    null,
  );

  useEffect(() => () => void (playback && URL.revokeObjectURL(playback.url)), [playback]);

  const toggleTake = async () => {
    const mic = microphone.mic.current;
    if (!mic) return;
    if (!recording) {
      mic.startTake();
      setRecording(true);
      window.setTimeout(() => {
        if (mic.recording) void finish();
      }, MAX_TEST_TAKE_MS);
      return;
    }
    await finish();
  };
  const finish = async () => {
    const mic = microphone.mic.current;
    if (!mic?.recording) return;
    const take = mic.stopTake();
    setRecording(false);
    const { wav, durationMs } = await takeToWav(take, { trim: false });
    setPlayback({
      url: URL.createObjectURL(wav),
      seconds: durationMs / 1000,
      clippingPercent: take.clippingPercent,
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Check a microphone</CardTitle>
        <CardDescription>
          Echo cancellation, noise suppression and automatic gain are off, as when recording samples.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-end gap-3">
          <DeviceSelect
            id="mic-check-device"
            devices={microphone.devices}
            value={microphone.deviceId}
            onChange={microphone.chooseDevice}
          />
          {microphone.settings ? (
            <Button variant="outline" onClick={() => void microphone.close()}>
              Close microphone
            </Button>
          ) : (
            <Button onClick={() => void microphone.open()} disabled={microphone.opening}>
              {microphone.opening ? 'Opening...' : 'Open microphone'}
            </Button>
          )}
        </div>
        <MicrophoneAlert error={microphone.error} />
        {microphone.settings && (
          <>
            <p className="text-sm text-muted-foreground" data-testid="mic-device">
              {microphone.settings.label}
              {microphone.settings.channelCount ? ` · ${microphone.settings.channelCount} channel(s)` : ''}
              {microphone.settings.echoCancellation ? ' · echo cancellation still on' : ''}
            </p>
            <LevelMeter levels={microphone.levels} settings={microphone.settings} />
            <Button onClick={() => void toggleTake()} variant={recording ? 'destructive' : 'default'}>
              {recording ? <Square aria-hidden="true" /> : <Mic aria-hidden="true" />}
              {recording ? 'Stop take' : 'Record a take'}
            </Button>
          </>
        )}
        {playback && (
          <div className="space-y-2">
            <p className="text-sm" data-testid="take-summary">
              Take: {playback.seconds.toFixed(1)} s, {playback.clippingPercent.toFixed(2)} % of samples
              clipped.
            </p>
            <audio controls src={playback.url} aria-label="Playback of the take" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
