import { Sparkles } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { usePredictions } from '@/data/analytics';
import { clockIn } from '../analytics-logic';
import { ConfidenceBar, Empty, Loading } from './shared';
import { LoadError } from '@/components/load-state';

/** What is likely in the next hour, and the pattern each guess stands on. */
export function PredictionsPanel() {
  const predictions = usePredictions();
  const data = predictions.data;
  return (
    <Panel
      title="Next hour"
      icon={Sparkles}
      description={
        data
          ? `Likely between ${clockIn(data.from, data.timeZone)} and ${clockIn(data.to, data.timeZone)} (${data.timeZone}).`
          : 'What is likely to happen in the next hour.'
      }
    >
      {data ? (
        data.predictions.length ? (
          <ul
            aria-label="Predictions"
            className="divide-y rounded-lg border"
            data-testid="analytics-predictions"
          >
            {[...data.predictions]
              .sort((a, b) => a.expectedAt.localeCompare(b.expectedAt))
              .map((p) => (
                <li
                  key={`${p.entityId}-${p.state}-${p.expectedAt}`}
                  className="grid gap-2 p-3 text-sm sm:grid-cols-[auto_minmax(0,1fr)_auto] sm:items-center sm:gap-4"
                >
                  <time dateTime={p.expectedAt} className="font-medium tabular-nums">
                    {clockIn(p.expectedAt, data.timeZone)}
                  </time>
                  <div className="min-w-0 space-y-1">
                    <p>
                      <span className="font-medium">{p.name}</span> → {p.state}
                    </p>
                    <p className="text-muted-foreground">
                      <Badge variant="secondary" className="mr-2">
                        {p.basis.kind === 'routine' ? 'Routine' : 'Sequence'}
                      </Badge>
                      {p.basis.text}
                    </p>
                  </div>
                  <ConfidenceBar value={p.confidence} label={`Confidence: ${p.name} ${p.state}`} />
                </li>
              ))}
          </ul>
        ) : (
          <Empty>
            Nothing expected in the next hour. Predictions come from routines and sequences as they are
            learnt.
          </Empty>
        )
      ) : predictions.error ? (
        <LoadError what="the predictions" query={predictions} />
      ) : (
        <Loading label="Loading the predictions" />
      )}
    </Panel>
  );
}
