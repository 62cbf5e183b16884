import { meterPercent, type MicLevels, type MicSettings } from '@/lib/audio';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const format = (dbfs: number | null | undefined) =>
  dbfs === null || dbfs === undefined ? '—' : `${dbfs.toFixed(1)} dBFS`;

/** A live input level with peak, noise floor, clipping light and the device's real sample rate. */
export function LevelMeter({ levels, settings }: { levels: MicLevels | null; settings: MicSettings | null }) {
  const rms = levels?.rmsDbfs ?? -100;
  const peak = levels?.peakDbfs ?? -100;
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Input level</span>
        {levels?.clipping ? (
          <Badge variant="destructive" aria-live="polite">
            Clipping
          </Badge>
        ) : (
          <Badge variant="outline">No clipping</Badge>
        )}
      </div>
      <div
        role="meter"
        aria-label="Input level"
        aria-valuemin={-60}
        aria-valuemax={0}
        aria-valuenow={Math.round(Math.max(-60, rms))}
        aria-valuetext={format(levels?.rmsDbfs)}
        className="relative h-4 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width] duration-75',
            peak > -1 ? 'bg-destructive' : peak > -6 ? 'bg-warning' : 'bg-success',
          )}
          style={{ width: `${meterPercent(rms)}%` }}
        />
        <div
          className="absolute top-0 h-full w-0.5 bg-foreground/70"
          style={{ left: `${meterPercent(peak)}%` }}
        />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Level</dt>
          <dd data-testid="level-rms">{format(levels?.rmsDbfs)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Peak</dt>
          <dd>{format(levels?.peakDbfs)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Noise floor</dt>
          <dd data-testid="noise-floor">{format(levels?.noiseFloorDbfs)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Sample rate</dt>
          <dd data-testid="sample-rate">{settings ? `${settings.sampleRate} Hz` : '—'}</dd>
        </div>
      </dl>
    </div>
  );
}

/** Why the microphone could not be opened, in words that say what to do. */
export function MicrophoneAlert({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Alert variant="destructive">
      <AlertTitle>Microphone</AlertTitle>
      <AlertDescription>{error}</AlertDescription>
    </Alert>
  );
}
