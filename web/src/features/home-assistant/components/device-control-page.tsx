import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useLocation } from 'wouter';
import type { HaEntity, HaMyAccess } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { useAuth } from '@/features/auth';
import { haEntitiesQueryOptions, haMyAccessQueryOptions } from '@/data/home-assistant';
import {
  domainLabel,
  filterEntities,
  formatState,
  groupEntities,
  mayControl,
  stateTone,
} from '../entity-logic';
import { useHaLive } from '@/data/home-assistant';
import { EntityControl } from './entity-controls';
import {
  ConnectionBanner,
  ConnectionPill,
  EmptyState,
  ErrorCard,
  HaPage,
  LivePill,
  useHaStatus,
} from './ha-common';
import { RelatedLinks } from '@/components/related-links';

interface DeviceControlProps {
  title: string;
  description: string;
  /** area: controllable entities per room; device: every device with all its entities. */
  groupBy: 'area' | 'device';
}

function DeviceControl({ title, description, groupBy }: DeviceControlProps) {
  const [location] = useLocation();
  const { isAdmin } = useAuth();
  const status = useHaStatus();
  const { liveState } = useHaLive();
  const query = useQuery(haEntitiesQueryOptions());
  // Admins may control every controllable domain; members only what an admin listed for them.
  const access = useQuery({ ...haMyAccessQueryOptions(), enabled: !isAdmin }).data;
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [domain, setDomain] = useState<string | null>(null);

  const entities = query.data?.entities;
  const candidates = useMemo(() => {
    if (!entities) return [];
    return groupBy === 'device'
      ? entities.filter((e) => e.device !== null)
      : entities.filter((e) => mayControl(e, isAdmin, access));
  }, [entities, groupBy, isAdmin, access]);
  const domains = useMemo(() => [...new Set(candidates.map((e) => e.domain))].sort(), [candidates]);
  const groups = useMemo(
    () =>
      groupEntities(
        filterEntities(domain ? candidates.filter((e) => e.domain === domain) : candidates, deferredSearch),
        groupBy,
      ),
    [candidates, domain, deferredSearch, groupBy],
  );

  return (
    <HaPage
      title={title}
      description={description}
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          <LivePill state={liveState} />
        </>
      }
    >
      <RelatedLinks
        links={[
          { label: 'Devices by room', href: '/ha-device-control' },
          { label: 'Devices with their entities', href: '/home-assistant-devices' },
        ].filter((link) => link.href !== location)}
      />
      <ConnectionBanner status={status.data} />
      <div className="flex flex-wrap items-center gap-3">
        <div className="relative min-w-64 flex-1">
          <Search aria-hidden="true" className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
          <Input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={
              groupBy === 'device' ? 'Search devices and entities' : 'Search lights, switches, rooms…'
            }
            aria-label="Search"
            className="pl-8"
          />
        </div>
        <div role="group" aria-label="Show only" className="flex flex-wrap gap-1">
          <Button
            size="sm"
            variant={domain === null ? 'default' : 'outline'}
            aria-pressed={domain === null}
            onClick={() => setDomain(null)}
          >
            All
          </Button>
          {domains.map((d) => (
            <Button
              key={d}
              size="sm"
              variant={domain === d ? 'default' : 'outline'}
              aria-pressed={domain === d}
              onClick={() => setDomain(domain === d ? null : d)}
            >
              {domainLabel(d)}
            </Button>
          ))}
        </div>
      </div>

      {entities ? (
        groups.length === 0 ? (
          <EmptyState title={candidates.length ? 'Nothing matches' : 'Nothing to control yet'}>
            {candidates.length
              ? 'Clear the search or the filter to see everything.'
              : 'Add lights, switches, covers, thermostats or media players in Home Assistant and they appear here.'}
          </EmptyState>
        ) : (
          groups.map((group) => (
            <section key={group.key} aria-label={group.label} className="grid gap-3">
              <h2 className="text-lg font-semibold tracking-tight">
                {group.label}
                {groupBy === 'device' && group.entities[0]?.area ? (
                  <span className="ml-2 text-sm font-normal text-muted-foreground">
                    {group.entities[0].area.name}
                  </span>
                ) : null}
              </h2>
              {groupBy === 'device' ? (
                <DeviceCard entities={group.entities} isAdmin={isAdmin} access={access} />
              ) : (
                <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
                  {group.entities.map((e) => (
                    <li key={e.entity_id}>
                      <EntityCard entity={e} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))
        )
      ) : query.error ? (
        <ErrorCard title="Couldn't load your devices" error={query.error} />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          <span className="sr-only">Loading devices</span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-36 w-full rounded-xl" />
          ))}
        </div>
      )}
    </HaPage>
  );
}

function EntityCard({ entity }: { entity: HaEntity }) {
  return (
    <Card className="h-full" role="group" aria-label={entity.name} data-entity-id={entity.entity_id}>
      <CardHeader className="flex-row items-start justify-between gap-2 pb-3">
        <div className="min-w-0">
          <CardTitle className="truncate">
            <h3>{entity.name}</h3>
          </CardTitle>
          <CardDescription className="truncate">
            {entity.device?.name ?? domainLabel(entity.domain)}
          </CardDescription>
        </div>
        <StatusPill tone={stateTone(entity)} data-testid="entity-state">
          {formatState(entity)}
        </StatusPill>
      </CardHeader>
      <CardContent>
        <EntityControl entity={entity} />
      </CardContent>
    </Card>
  );
}

function DeviceCard({
  entities,
  isAdmin,
  access,
}: {
  entities: HaEntity[];
  isAdmin: boolean;
  access: HaMyAccess | undefined;
}) {
  const device = entities[0]?.device;
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardDescription>
          {[device?.manufacturer, device?.model].filter(Boolean).join(' · ') || 'Unknown model'}
          <Badge variant="secondary" className="ml-2">
            {entities.length} {entities.length === 1 ? 'entity' : 'entities'}
          </Badge>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {entities.map((e) => (
            <li key={e.entity_id} className="grid gap-2 rounded-lg border p-3" data-entity-id={e.entity_id}>
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
                  <div className="truncate font-medium">{e.name}</div>
                  <div className="truncate font-mono text-xs text-muted-foreground">{e.entity_id}</div>
                </div>
                <StatusPill tone={stateTone(e)} data-testid="entity-state">
                  {formatState(e)}
                </StatusPill>
              </div>
              {mayControl(e, isAdmin, access) ? <EntityControl entity={e} /> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** /ha-device-control: switch and adjust single devices, room by room. */
export function DeviceControlPage() {
  return (
    <DeviceControl
      title="HA Device Control"
      description="Switch and adjust your Home Assistant devices, room by room. Changes show at once and follow what Home Assistant reports."
      groupBy="area"
    />
  );
}

/** /home-assistant (HA Devices). */
export function HaDevicesPage() {
  return (
    <DeviceControl
      title="HA Devices"
      description="Your Home Assistant devices, controlled from the console."
      groupBy="area"
    />
  );
}

/** /home-assistant-devices: every device with its entities. */
export function HomeAssistantDevicesPage() {
  return (
    <DeviceControl
      title="Home Assistant Devices"
      description="Your Home Assistant devices with their entities; the ones you may control have their controls."
      groupBy="device"
    />
  );
}
