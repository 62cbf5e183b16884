import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RefreshCw, User } from 'lucide-react';
import { ENTITY_ID_PATTERN, type HaLogbookEntry } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { haEntitiesQueryOptions, haLogbookQueryOptions } from '@/data/home-assistant';
import { domainLabel } from '../entity-logic';
import { ConnectionBanner, ConnectionPill, EmptyState, ErrorCard, HaPage, useHaStatus } from './ha-common';

const RANGES = [
  { value: '1', label: 'Last hour', hours: 1 },
  { value: '6', label: 'Last 6 hours', hours: 6 },
  { value: '24', label: 'Last 24 hours', hours: 24 },
  { value: '168', label: 'Last 7 days', hours: 168 },
] as const;

const ALL = '__all__';

/** Entries newest first, split by calendar day. */
export function groupByDay(entries: readonly HaLogbookEntry[]): { day: string; entries: HaLogbookEntry[] }[] {
  const days = new Map<string, HaLogbookEntry[]>();
  for (const entry of entries) {
    const day = new Date(entry.when).toLocaleDateString(undefined, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
    });
    const list = days.get(day) ?? [];
    list.push(entry);
    days.set(day, list);
  }
  return [...days].map(([day, list]) => ({ day, entries: list }));
}

/** /ha-logbook: Home Assistant's logbook as a timeline, with filters. */
export function LogbookPage() {
  const status = useHaStatus();
  const [hours, setHours] = useState<string>('24');
  const [anchor, setAnchor] = useState(() => Date.now());
  const [entityText, setEntityText] = useState('');
  const [domain, setDomain] = useState<string>(ALL);
  const [peopleOnly, setPeopleOnly] = useState(false);
  const entityListId = useId();
  const entities = useQuery({ ...haEntitiesQueryOptions(), enabled: status.data?.state === 'connected' });

  const entity = ENTITY_ID_PATTERN.test(entityText.trim()) ? entityText.trim() : undefined;
  const start = new Date(anchor - Number(hours) * 3_600_000).toISOString();
  const query = useQuery(haLogbookQueryOptions({ start, entity }));

  const domains = useMemo(
    () =>
      [...new Set((query.data?.entries ?? []).map((e) => e.domain).filter((d): d is string => !!d))].sort(),
    [query.data],
  );
  const shown = useMemo(
    () =>
      (query.data?.entries ?? []).filter(
        (e) => (domain === ALL || e.domain === domain) && (!peopleOnly || e.byUser),
      ),
    [query.data, domain, peopleOnly],
  );

  return (
    <HaPage
      title="HA Logbook"
      description="What happened in your home, from Home Assistant's logbook, newest first."
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          <Button variant="outline" onClick={() => setAnchor(Date.now())} disabled={query.isFetching}>
            <RefreshCw aria-hidden="true" className={cn(query.isFetching && 'animate-spin')} />
            Refresh
          </Button>
        </>
      }
    >
      <ConnectionBanner status={status.data} />
      <Card>
        <CardContent className="grid gap-4 pt-6 sm:grid-cols-2 lg:grid-cols-4">
          <div className="grid gap-2">
            <Label htmlFor={`${entityListId}-range`}>Period</Label>
            <Select
              value={hours}
              onValueChange={(v) => {
                setHours(v);
                setAnchor(Date.now());
              }}
            >
              <SelectTrigger id={`${entityListId}-range`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {RANGES.map((r) => (
                  <SelectItem key={r.value} value={r.value}>
                    {r.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${entityListId}-entity`}>Entity</Label>
            <Input
              id={`${entityListId}-entity`}
              list={entityListId}
              value={entityText}
              onChange={(e) => setEntityText(e.target.value)}
              placeholder="All entities (e.g. light.kitchen)"
              aria-invalid={entityText.trim() !== '' && !entity}
            />
            <datalist id={entityListId}>
              {(entities.data?.entities ?? []).slice(0, 2000).map((e) => (
                <option key={e.entity_id} value={e.entity_id}>
                  {e.name}
                </option>
              ))}
            </datalist>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${entityListId}-domain`}>Domain</Label>
            <Select value={domain} onValueChange={setDomain}>
              <SelectTrigger id={`${entityListId}-domain`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All domains</SelectItem>
                {domains.map((d) => (
                  <SelectItem key={d} value={d}>
                    {domainLabel(d)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex items-end pb-2">
            <Label className="font-normal">
              <Checkbox checked={peopleOnly} onCheckedChange={(v) => setPeopleOnly(v === true)} />
              Only what people did
            </Label>
          </div>
        </CardContent>
      </Card>

      {query.data ? (
        shown.length === 0 ? (
          <EmptyState title="Nothing in the logbook for this period">
            Choose a longer period or clear the filters. Sensors that measure continuously are not in the
            logbook.
          </EmptyState>
        ) : (
          <div className="grid gap-6">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {shown.length.toLocaleString()} {shown.length === 1 ? 'entry' : 'entries'}
            </p>
            {groupByDay(shown).map(({ day, entries }) => (
              <section key={day} aria-label={day} className="grid gap-2">
                <h2 className="text-sm font-semibold text-muted-foreground">{day}</h2>
                <ol className="relative grid gap-0 border-l pl-5">
                  {entries.map((e, i) => (
                    <li
                      key={`${e.when}-${e.entity_id}-${i}`}
                      className="relative py-2"
                      data-entity-id={e.entity_id}
                    >
                      <span
                        aria-hidden="true"
                        className={cn(
                          'absolute top-3.5 -left-[25px] size-2.5 rounded-full border-2 border-background',
                          e.state === 'on' || e.state === 'open' ? 'bg-success' : 'bg-muted-foreground',
                        )}
                      />
                      <div className="flex flex-wrap items-baseline gap-x-2">
                        <time dateTime={e.when} className="text-sm text-muted-foreground tabular-nums">
                          {new Date(e.when).toLocaleTimeString()}
                        </time>
                        <span className="font-medium">{e.name}</span>
                        <span>{e.message}</span>
                        {e.byUser ? (
                          <Badge variant="secondary">
                            <User aria-hidden="true" />
                            by a person
                          </Badge>
                        ) : null}
                      </div>
                      {e.entity_id ? (
                        <div className="font-mono text-xs text-muted-foreground">{e.entity_id}</div>
                      ) : null}
                    </li>
                  ))}
                </ol>
              </section>
            ))}
          </div>
        )
      ) : query.error ? (
        <ErrorCard title="Couldn't read the logbook" error={query.error} />
      ) : (
        <div className="grid gap-2" aria-busy="true">
          <span className="sr-only">Loading the logbook</span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      )}
    </HaPage>
  );
}
