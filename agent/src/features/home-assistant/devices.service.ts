import type { Role } from '../../contract/auth.js';
import type { HaDevice, HaDevices } from '../../contract/ha-automations.js';
import type { HaEntity, HaMemberAccess } from '../../contract/home-assistant.js';
import type { HaConnection } from './ha-connection.js';
import type { MemberAccessStore } from './member-access.js';

const isAdmin = (role: Role) => role === 'admin' || role === 'superadmin';

/** The `area` query's value for devices without an area. */
export const NO_AREA = 'none';

function allowedFor(access: HaMemberAccess) {
  return (entityId: string) =>
    access.entities.includes(entityId) || access.domains.includes(entityId.slice(0, entityId.indexOf('.')));
}

/**
 * Home Assistant's devices grouped by area, from the registries and states the entity cache keeps
 * (loaded on connect, reloaded on registry events): no request to HA per page view.
 */
export function createDevicesService(deps: { connection: HaConnection; memberAccess: MemberAccessStore }) {
  const { connection } = deps;

  return {
    /**
     * Admins see every device; members only the entities their access allows, and only devices
     * with at least one of those (the rest of the home is not theirs to see here).
     */
    list(role: Role, query: { area?: string }): HaDevices {
      connection.requireSession();
      const cache = connection.cache;
      const visible = isAdmin(role) ? () => true : allowedFor(deps.memberAccess.get());

      const byDevice = new Map<string, HaEntity[]>();
      for (const entry of cache.registryEntries()) {
        if (!entry.device_id || entry.disabled_by || entry.hidden_by) continue;
        if (!visible(entry.entity_id)) continue;
        const view = cache.view(entry.entity_id);
        if (!view) continue;
        const list = byDevice.get(entry.device_id) ?? [];
        list.push(view);
        byDevice.set(entry.device_id, list);
      }

      const groups = new Map<string | null, HaDevice[]>();
      for (const device of cache.deviceEntries()) {
        if (device.disabled_by) continue;
        const entities = byDevice.get(device.id);
        if (!entities?.length) continue;
        const areaId = device.area_id && cache.areaName(device.area_id) !== null ? device.area_id : null;
        if (query.area !== undefined && (areaId ?? NO_AREA) !== query.area) continue;
        const list = groups.get(areaId) ?? [];
        list.push({
          id: device.id,
          name: device.name_by_user ?? device.name ?? device.id,
          manufacturer: device.manufacturer ?? null,
          model: device.model ?? null,
          entities: entities.sort((a, b) => a.name.localeCompare(b.name)),
        });
        groups.set(areaId, list);
      }

      return {
        areas: [...groups]
          .map(([areaId, devices]) => ({
            area: areaId ? { id: areaId, name: cache.areaName(areaId)! } : null,
            devices: devices.sort((a, b) => a.name.localeCompare(b.name)),
          }))
          // Named areas alphabetically, devices without an area last.
          .sort((a, b) =>
            a.area === null ? 1 : b.area === null ? -1 : a.area.name.localeCompare(b.area.name),
          ),
      };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
