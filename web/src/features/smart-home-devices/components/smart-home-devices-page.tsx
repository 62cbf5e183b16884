import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, Cpu } from 'lucide-react';
import type { HaDevice, HaEntity } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { useAuth } from '@/features/auth';
import { haEntitiesQueryOptions, haMyAccessQueryOptions } from '@/data/home-assistant';
import { EntityControl } from '@/features/home-assistant/components/entity-controls';
import {
  ConnectionBanner,
  ConnectionPill,
  EmptyState,
  ErrorCard,
  HaPage,
  LivePill,
  useHaStatus,
} from '@/features/home-assistant/components/ha-common';
import { formatState, mayControl, stateTone } from '@/features/home-assistant/entity-logic';
import { useHaLive } from '@/data/home-assistant';
import { cn } from '@/lib/utils';
import { haDevicesQueryOptions } from '@/data/home-assistant';

const ALL = 'all';
const NO_AREA = 'none';

function DeviceCard({
  device,
  current,
  controllable,
}: {
  device: HaDevice;
  current: (e: HaEntity) => HaEntity;
  controllable: (e: HaEntity) => boolean;
}) {
  return (
    <Card data-device={device.id}>
      <CardContent className="grid gap-3 pt-5">
        <div>
          <h3 className="font-medium">{device.name}</h3>
          {device.manufacturer || device.model ? (
            <p className="text-xs text-muted-foreground">
              {[device.manufacturer, device.model].filter(Boolean).join(' · ')}
            </p>
          ) : null}
        </div>
        <ul className="grid gap-3">
          {device.entities.map((initial) => {
            const entity = current(initial);
            return (
              <li key={entity.entity_id} className="grid gap-1.5 rounded-md border p-3">
                <div className="flex items-center justify-between gap-2">
                  <span className="min-w-0 truncate text-sm font-medium" title={entity.entity_id}>
                    {entity.name}
                  </span>
                  <StatusPill tone={stateTone(entity)}>{formatState(entity)}</StatusPill>
                </div>
                {controllable(entity) ? <EntityControl entity={entity} /> : null}
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}

export function SmartHomeDevicesPage() {
  const { isAdmin } = useAuth();
  const status = useHaStatus();
  const connected = status.data?.state === 'connected';
  const { liveState } = useHaLive(connected);
  const devices = useQuery({ ...haDevicesQueryOptions(), enabled: connected });
  const entities = useQuery({ ...haEntitiesQueryOptions(), enabled: connected });
  const access = useQuery({ ...haMyAccessQueryOptions(), enabled: !isAdmin }).data;
  const [area, setArea] = useState(ALL);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());

  // The live entity list carries the newest states; the devices answer only its snapshot.
  const byId = useMemo(
    () => new Map((entities.data?.entities ?? []).map((e) => [e.entity_id, e])),
    [entities.data],
  );
  const current = (e: HaEntity) => byId.get(e.entity_id) ?? e;
  const groups = devices.data?.areas ?? [];
  const shown = area === ALL ? groups : groups.filter((g) => (g.area?.id ?? NO_AREA) === area);

  return (
    <HaPage
      title="Smart Home Devices"
      description="Home Assistant's devices, room by room, with the controls their entities allow."
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          {connected ? <LivePill state={liveState} /> : null}
        </>
      }
    >
      <ConnectionBanner status={status.data} />
      {status.data && !connected ? null : <RefreshError what="the devices" query={devices} />}
      {status.data && !connected ? null : devices.isPending ? (
        <div
          className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
          aria-busy="true"
          aria-label="Loading devices"
        >
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-40 w-full" />
          ))}
        </div>
      ) : devices.isLoadingError ? (
        <ErrorCard title="The devices could not be loaded" error={devices.error} />
      ) : groups.length === 0 ? (
        <EmptyState title="No devices to show">
          {isAdmin
            ? 'Home Assistant has no devices with entities yet, or its token cannot read the registries.'
            : 'An administrator has not allowed you any devices yet.'}
        </EmptyState>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor="area-filter">Area</Label>
              <Select value={area} onValueChange={setArea}>
                <SelectTrigger id="area-filter" className="w-56">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>All areas</SelectItem>
                  {groups.map((g) => (
                    <SelectItem key={g.area?.id ?? NO_AREA} value={g.area?.id ?? NO_AREA}>
                      {g.area?.name ?? 'No area'}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          {shown.map((group) => {
            const key = group.area?.id ?? NO_AREA;
            const open = !collapsed.has(key);
            const name = group.area?.name ?? 'No area';
            const panelId = `area-${key}`;
            return (
              <section key={key} aria-label={name} className="grid gap-3">
                <h2>
                  <button
                    type="button"
                    aria-expanded={open}
                    aria-controls={panelId}
                    onClick={() =>
                      setCollapsed((prev) => {
                        const next = new Set(prev);
                        if (next.has(key)) next.delete(key);
                        else next.add(key);
                        return next;
                      })
                    }
                    className="flex items-center gap-2 rounded-md text-lg font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    <ChevronDown
                      aria-hidden="true"
                      className={cn('size-5 transition-transform', !open && '-rotate-90')}
                    />
                    {name}
                    <span className="text-sm font-normal text-muted-foreground">
                      <Cpu aria-hidden="true" className="mr-1 inline size-4" />
                      {group.devices.length} device{group.devices.length === 1 ? '' : 's'}
                    </span>
                  </button>
                </h2>
                {open ? (
                  <div id={panelId} className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
                    {group.devices.map((device) => (
                      <DeviceCard
                        key={device.id}
                        device={device}
                        current={current}
                        controllable={(e) => mayControl(e, isAdmin, access)}
                      />
                    ))}
                  </div>
                ) : null}
              </section>
            );
          })}
        </>
      )}
    </HaPage>
  );
}
