import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, Search } from 'lucide-react';
import type { HaEntity } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { haEntitiesQueryOptions } from '@/data/home-assistant';
import { filterEntities, formatState, groupEntities, relativeTime, stateTone } from '../entity-logic';
import { useHaLive } from '@/data/home-assistant';
import {
  ConnectionBanner,
  ConnectionPill,
  EmptyState,
  ErrorCard,
  HaPage,
  LivePill,
  useHaStatus,
} from './ha-common';

/** Groups open by themselves while the whole list is at most this long. */
const OPEN_ALL_BELOW = 150;
/** Rows a group shows before "Show all". */
const ROWS_PER_GROUP = 100;

export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** /ha-entities: every entity of Home Assistant, searchable, grouped by domain or area, live. */
export function EntitiesPage() {
  const status = useHaStatus();
  const { liveState } = useHaLive();
  const query = useQuery(haEntitiesQueryOptions());
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [groupBy, setGroupBy] = useState<'domain' | 'area'>('domain');
  const now = useNow();

  const entities = query.data?.entities;
  const groups = useMemo(
    () => (entities ? groupEntities(filterEntities(entities, deferredSearch), groupBy) : []),
    [entities, deferredSearch, groupBy],
  );
  const shown = groups.reduce((n, g) => n + g.entities.length, 0);

  return (
    <HaPage
      title="HA Entities"
      description="Every Home Assistant entity and its state, as the hub sees it right now."
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          <LivePill state={liveState} />
        </>
      }
    >
      <ConnectionBanner status={status.data} />
      <div className="flex flex-wrap items-center gap-3">
        <div className="relative min-w-64 flex-1">
          <Search aria-hidden="true" className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
          <Input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search by name, entity id, area, device or state"
            aria-label="Search entities"
            className="pl-8"
          />
        </div>
        <div role="group" aria-label="Group entities by" className="flex gap-1">
          {(['domain', 'area'] as const).map((by) => (
            <Button
              key={by}
              size="sm"
              variant={groupBy === by ? 'default' : 'outline'}
              aria-pressed={groupBy === by}
              onClick={() => setGroupBy(by)}
            >
              By {by}
            </Button>
          ))}
        </div>
      </div>

      {entities ? (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {deferredSearch
              ? `${shown.toLocaleString()} of ${entities.length.toLocaleString()} entities match`
              : `${entities.length.toLocaleString()} entities in ${groups.length} ${groupBy === 'domain' ? 'domains' : 'areas'}`}
          </p>
          {groups.length === 0 ? (
            <EmptyState
              title={deferredSearch ? 'Nothing matches your search' : 'Home Assistant has no entities'}
            >
              {deferredSearch
                ? 'Try fewer or other words.'
                : 'Add integrations in Home Assistant; they appear here at once.'}
            </EmptyState>
          ) : (
            <div className="grid gap-3">
              {groups.map((group) => (
                <EntityGroupCard
                  key={`${groupBy}:${group.key}:${deferredSearch !== '' || shown <= OPEN_ALL_BELOW}`}
                  label={group.label}
                  entities={group.entities}
                  defaultOpen={deferredSearch !== '' || shown <= OPEN_ALL_BELOW}
                  showArea={groupBy === 'domain'}
                  now={now}
                />
              ))}
            </div>
          )}
        </>
      ) : query.error ? (
        <ErrorCard title="Couldn't load the entities" error={query.error} />
      ) : (
        <div className="grid gap-3" aria-busy="true">
          <span className="sr-only">Loading entities</span>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-14 w-full rounded-xl" />
          ))}
        </div>
      )}
    </HaPage>
  );
}

function EntityGroupCard({
  label,
  entities,
  defaultOpen,
  showArea,
  now,
}: {
  label: string;
  entities: HaEntity[];
  defaultOpen: boolean;
  showArea: boolean;
  now: number;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [all, setAll] = useState(false);
  const rows = all ? entities : entities.slice(0, ROWS_PER_GROUP);
  const Icon = open ? ChevronDown : ChevronRight;
  return (
    <Card role="region" aria-label={label}>
      <h2>
        <button
          type="button"
          className="flex w-full items-center gap-2 rounded-xl px-4 py-3 text-left font-semibold hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
          {label}
          <Badge variant="secondary" className="ml-auto">
            {entities.length.toLocaleString()}
          </Badge>
        </button>
      </h2>
      {open ? (
        <CardContent className="pb-3">
          <Table label={`${label} table`}>
            <TableHeader>
              <TableRow>
                <TableHead>Entity</TableHead>
                <TableHead>State</TableHead>
                <TableHead>{showArea ? 'Area' : 'Domain'}</TableHead>
                <TableHead>Device</TableHead>
                <TableHead>Changed</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((e) => (
                <TableRow key={e.entity_id} data-entity-id={e.entity_id}>
                  <TableCell>
                    <div className="font-medium">{e.name}</div>
                    <div className="font-mono text-xs text-muted-foreground">{e.entity_id}</div>
                  </TableCell>
                  <TableCell>
                    <StatusPill tone={stateTone(e)} data-testid="entity-state">
                      {formatState(e)}
                    </StatusPill>
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    {showArea ? (e.area?.name ?? '—') : e.domain}
                  </TableCell>
                  <TableCell className="text-muted-foreground">{e.device?.name ?? '—'}</TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">
                    <time dateTime={e.last_changed} title={new Date(e.last_changed).toLocaleString()}>
                      {relativeTime(e.last_changed, now)}
                    </time>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {entities.length > rows.length ? (
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => setAll(true)}>
              Show all {entities.length.toLocaleString()}
            </Button>
          ) : null}
        </CardContent>
      ) : null}
    </Card>
  );
}
