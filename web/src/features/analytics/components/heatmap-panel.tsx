import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Grid3x3 } from 'lucide-react';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { useHeatmap, useRoutines, useSequences } from '@/data/analytics';
import { useAuth } from '@/features/auth';
import { haEntitiesQueryOptions } from '@/data/home-assistant';
import { cn } from '@/lib/utils';
import { WEEKDAYS, WEEKDAYS_SHORT, busiestCell, heatCellWords, heatLevel, heatMax } from '../analytics-logic';
import { Empty, Loading, selectClass } from './shared';
import { LoadError } from '@/components/load-state';

/** Five shades of the primary colour, readable in both themes; level 0 is the empty ground. */
const LEVEL_CLASS = ['bg-muted', 'bg-primary/20', 'bg-primary/45', 'bg-primary/70', 'bg-primary'] as const;

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/**
 * The entities a heatmap can be drawn for: those with routines first, then, for admins, the rest of
 * HA's. Members choose only among what the analytics answers already showed them (the agent scopes
 * those to what they may see; HA's entity list is not scoped the same way).
 */
function useEntityChoices() {
  const { isAdmin } = useAuth();
  const routines = useRoutines();
  const sequences = useSequences();
  const ha = useQuery({ ...haEntitiesQueryOptions(), enabled: isAdmin });
  // A few dozen entities: cheap enough to work out on every render.
  const seen = new Map<string, { entityId: string; name: string; states: Set<string> }>();
  for (const r of routines.data?.routines ?? []) {
    const entry = seen.get(r.entityId) ?? { entityId: r.entityId, name: r.name, states: new Set<string>() };
    entry.states.add(r.state);
    seen.set(r.entityId, entry);
  }
  const withRoutines = [...seen.values()];
  const others = new Map<string, { entityId: string; name: string; states: Set<string> }>();
  const offer = (entityId: string, name: string) => {
    if (!seen.has(entityId) && !others.has(entityId))
      others.set(entityId, { entityId, name, states: new Set() });
  };
  for (const s of sequences.data?.sequences ?? []) {
    offer(s.from.entityId, s.from.name);
    offer(s.to.entityId, s.to.name);
  }
  if (isAdmin) for (const e of ha.data?.entities ?? []) offer(e.entity_id, e.name);
  return {
    withRoutines,
    others: [...others.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** Hour × weekday counts of one entity's changes: when in the week it usually moves. */
export function HeatmapPanel() {
  const { withRoutines, others } = useEntityChoices();
  const [chosen, setChosen] = useState<string | null>(null);
  const [state, setState] = useState('');
  const entity = chosen ?? withRoutines[0]?.entityId ?? others[0]?.entityId ?? null;
  const states = [...(withRoutines.find((e) => e.entityId === entity)?.states ?? [])];
  const heatmap = useHeatmap(entity, state || null);

  return (
    <Panel
      title="Week heatmap"
      icon={Grid3x3}
      description="How often an entity changed, by hour of the day and day of the week."
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor="heatmap-entity">Entity</Label>
          <select
            id="heatmap-entity"
            className={selectClass}
            value={entity ?? ''}
            disabled={!entity}
            onChange={(e) => {
              setChosen(e.target.value);
              setState('');
            }}
          >
            {withRoutines.length ? (
              <optgroup label="With routines">
                {withRoutines.map((e) => (
                  <option key={e.entityId} value={e.entityId}>
                    {e.name} ({e.entityId})
                  </option>
                ))}
              </optgroup>
            ) : null}
            {others.length ? (
              <optgroup label="Other entities">
                {others.map((e) => (
                  <option key={e.entityId} value={e.entityId}>
                    {e.name} ({e.entityId})
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="heatmap-state">Changes to</Label>
          <select
            id="heatmap-state"
            className={selectClass}
            value={state}
            onChange={(e) => setState(e.target.value)}
          >
            <option value="">Any state</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      {!entity ? (
        <Empty>
          No entity to draw yet: the heatmap fills in once Home Assistant&apos;s history has been read.
        </Empty>
      ) : heatmap.data ? (
        <HeatGrid heatmap={heatmap.data} />
      ) : heatmap.error ? (
        <LoadError what="the heatmap" query={heatmap} />
      ) : (
        <Loading label="Loading the heatmap" rows={4} />
      )}
    </Panel>
  );
}

function HeatGrid({
  heatmap,
}: {
  heatmap: {
    entityId: string;
    name: string;
    state: string | null;
    counts: number[][];
    total: number;
    timeZone: string;
  };
}) {
  const max = heatMax(heatmap);
  const busiest = busiestCell(heatmap);
  const caption = `${heatmap.name}: ${heatmap.state ? `changes to ${heatmap.state}` : 'all changes'} by weekday and hour (${heatmap.timeZone})`;
  return (
    <div className="grid gap-3">
      {/* A table is the chart: rows are weekdays, columns hours, each cell's count read out by screen readers. */}
      <div
        role="region"
        aria-label="Heatmap, scrolls sideways"
        tabIndex={0}
        className="overflow-x-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <table
          className="w-full min-w-[40rem] table-fixed border-separate border-spacing-0.5 text-xs"
          data-testid="analytics-heatmap"
        >
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="w-10">
                <span className="sr-only">Weekday</span>
              </th>
              {HOURS.map((h) => (
                <th key={h} scope="col" className="font-normal text-muted-foreground tabular-nums">
                  {/* Every third hour is written; all are read out. */}
                  <span aria-hidden="true">{h % 3 === 0 ? String(h).padStart(2, '0') : ''}</span>
                  <span className="sr-only">{String(h).padStart(2, '0')}:00</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {heatmap.counts.map((row, weekday) => (
              <tr key={weekday}>
                <th scope="row" className="pr-1 text-left font-normal text-muted-foreground">
                  <abbr title={WEEKDAYS[weekday]} className="no-underline">
                    {WEEKDAYS_SHORT[weekday]}
                  </abbr>
                </th>
                {row.map((count, hour) => (
                  <td
                    key={hour}
                    title={heatCellWords(weekday, hour, count)}
                    data-count={count}
                    className={cn('h-6 rounded-sm', LEVEL_CLASS[heatLevel(count, max)])}
                  >
                    <span className="sr-only">{count}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
        <p>
          {heatmap.total.toLocaleString()} {heatmap.total === 1 ? 'change' : 'changes'}
          {busiest
            ? `; busiest: ${WEEKDAYS[busiest.weekday]} at ${String(busiest.hour).padStart(2, '0')}:00 (${busiest.count})`
            : ''}
          .
        </p>
        <div className="flex items-center gap-1" aria-hidden="true">
          <span>Fewer</span>
          {LEVEL_CLASS.map((c) => (
            <span key={c} className={cn('size-3 rounded-sm', c)} />
          ))}
          <span>More</span>
        </div>
      </div>
    </div>
  );
}
