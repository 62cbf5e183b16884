import { AlarmClock, TriangleAlert } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { useAnomalies, useRoutines } from '@/data/analytics';
import {
  DAY_KIND_WORDS,
  MIN_PATTERN_DAYS,
  clockIn,
  spreadWords,
  supportWords,
  type HistoryStage,
} from '../analytics-logic';
import { ConfidenceBar, Empty, Loading } from './shared';
import { LoadError } from '@/components/load-state';

/** Routines, strongest first: an entity reaching a state at a usual time of day. */
export function RoutinesPanel({ stage }: { stage: HistoryStage | null }) {
  const routines = useRoutines();
  const list = routines.data?.routines;
  return (
    <Panel
      title="Routines"
      icon={AlarmClock}
      description={
        routines.data
          ? `Learnt from ${routines.data.days} days of history; times in ${routines.data.timeZone}.`
          : 'What happens at about the same time, day after day.'
      }
    >
      {list ? (
        list.length ? (
          <ul aria-label="Routines" className="divide-y rounded-lg border" data-testid="analytics-routines">
            {[...list]
              .sort((a, b) => b.confidence - a.confidence)
              .map((routine) => (
                <li
                  key={routine.id}
                  data-entity={routine.entityId}
                  data-state={routine.state}
                  className="grid gap-2 p-3 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
                >
                  <div className="min-w-0 space-y-1">
                    <p className="flex flex-wrap items-baseline gap-x-2">
                      <span className="font-medium">{routine.name}</span>
                      <span className="text-muted-foreground">→ {routine.state}</span>
                      <Badge variant="secondary">{DAY_KIND_WORDS[routine.days]}</Badge>
                    </p>
                    <p className="text-muted-foreground">
                      Usually at{' '}
                      <span className="font-medium text-foreground tabular-nums">{routine.meanTime}</span>{' '}
                      {spreadWords(routine.spreadMinutes)} · {supportWords(routine)}
                    </p>
                  </div>
                  <ConfidenceBar
                    value={routine.confidence}
                    label={`Confidence: ${routine.name} ${routine.state} at ${routine.meanTime}`}
                  />
                </li>
              ))}
          </ul>
        ) : (
          <Empty>
            {stage?.kind === 'collecting' || stage?.kind === 'empty'
              ? `No routines yet: they need at least ${MIN_PATTERN_DAYS} days of history, and the hub has ${stage.kind === 'empty' ? 'none' : stage.days} so far.`
              : 'No routine found: nothing happens at about the same time on most days. Routines appear as the history grows.'}
          </Empty>
        )
      ) : routines.error ? (
        <LoadError what="the routines" query={routines} />
      ) : (
        <Loading label="Loading the routines" />
      )}
    </Panel>
  );
}

/** What broke the pattern today: a strong routine missed, a device on at an hour it never is. */
export function AnomaliesPanel() {
  const anomalies = useAnomalies();
  const list = anomalies.data?.anomalies;
  return (
    <Panel title="Anomalies" icon={TriangleAlert} description="Today's departures from the usual.">
      {list ? (
        list.length ? (
          <ul aria-label="Anomalies" className="divide-y rounded-lg border">
            {list.map((anomaly) => (
              <li key={anomaly.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 p-3 text-sm">
                <time dateTime={anomaly.at} className="text-muted-foreground tabular-nums">
                  {clockIn(anomaly.at, anomalies.data?.timeZone ?? '')}
                </time>
                <Badge variant={anomaly.severity === 'warning' ? 'outline' : 'secondary'}>
                  {anomaly.kind === 'missed_routine' ? 'Missed routine' : 'Unusual hour'}
                </Badge>
                <span>{anomaly.message}</span>
              </li>
            ))}
          </ul>
        ) : (
          <Empty>Nothing out of the ordinary today.</Empty>
        )
      ) : anomalies.error ? (
        <LoadError what="the anomalies" query={anomalies} />
      ) : (
        <Loading label="Loading the anomalies" rows={2} />
      )}
    </Panel>
  );
}
