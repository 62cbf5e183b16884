import type { SampleQuality } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';

const VERDICT_LABEL = { good: 'Good', warning: 'Warning', bad: 'Bad' } as const;

export function VerdictBadge({ verdict }: { verdict: SampleQuality['verdict'] }) {
  return (
    <Badge variant={verdict === 'good' ? 'success' : verdict === 'warning' ? 'warning' : 'destructive'}>
      {VERDICT_LABEL[verdict]}
    </Badge>
  );
}

/** The measured figures and, in plain words, what is wrong and what to do. */
export function QualityDetails({ quality }: { quality: SampleQuality }) {
  return (
    <div className="space-y-2 text-sm">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        <Figure label="Duration" value={`${(quality.durationMs / 1000).toFixed(2)} s`} />
        <Figure label="Speech" value={`${quality.speechMs} ms`} />
        <Figure label="SNR" value={quality.snrDb === null ? 'no speech' : `${quality.snrDb.toFixed(1)} dB`} />
        <Figure label="Clipping" value={`${quality.clippingPercent.toFixed(2)} %`} />
        <Figure label="Level" value={`${quality.rmsDbfs.toFixed(1)} dBFS`} />
        <Figure label="Peak" value={`${quality.peakDbfs.toFixed(1)} dBFS`} />
        <Figure label="Silence before" value={`${quality.leadingSilenceMs} ms`} />
        <Figure label="Silence after" value={`${quality.trailingSilenceMs} ms`} />
      </dl>
      {quality.issues.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 text-muted-foreground">
          {quality.issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
