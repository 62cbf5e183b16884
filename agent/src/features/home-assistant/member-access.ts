import {
  DEFAULT_HA_MEMBER_ACCESS,
  haMemberAccessSchema,
  type HaMemberAccess,
} from '../../contract/home-assistant.js';
import { forbidden } from '../../lib/http-error.js';
import type { SettingsStore } from './ha-config.js';

export const HA_MEMBER_ACCESS_KEY = 'home-assistant.member-access';

/** Service data keys through which Home Assistant targets more than the entities named. */
const WIDE_TARGET_KEYS = ['area_id', 'device_id', 'floor_id', 'label_id'] as const;

const HOW_TO_ALLOW = 'an admin can allow it under Home Assistant → Connection setup → Member access';

/** The admin-set list of what members may control, kept in the settings table. */
export function createMemberAccessStore(settings: SettingsStore) {
  return {
    get(): HaMemberAccess {
      // A stored list that no longer validates (hand-edited, an older version) falls back to the
      // conservative default rather than to "everything".
      return settings.get(HA_MEMBER_ACCESS_KEY, haMemberAccessSchema) ?? DEFAULT_HA_MEMBER_ACCESS;
    },

    set(input: HaMemberAccess): HaMemberAccess {
      const value = {
        domains: [...new Set(input.domains)].sort(),
        entities: [...new Set(input.entities)].sort(),
      };
      settings.set(HA_MEMBER_ACCESS_KEY, value);
      return value;
    },
  };
}

export type MemberAccessStore = ReturnType<typeof createMemberAccessStore>;

const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf('.'));

/**
 * Refuses (403) a member's service call that could reach anything outside the list. Called after
 * the per-service rules (everyday domains and services only), so only targets are checked here:
 * - an area, device, floor or label target reaches entities nobody listed: refused outright;
 * - every entity named must be listed, or be of a listed domain;
 * - a call that names no entity acts on the domain itself (or, for script.<name>, on that
 *   script), so the domain (or that script) must be listed.
 */
export function checkMemberTargets(
  access: HaMemberAccess,
  call: { domain: string; service: string; entityIds: string[]; serviceData: Record<string, unknown> },
): void {
  const wide = WIDE_TARGET_KEYS.find((key) => call.serviceData[key] !== undefined);
  if (wide) {
    throw forbidden(
      `Members may target entities by their ids only, not by ${wide}: it can reach entities an admin has not allowed`,
    );
  }
  const allowed = (entityId: string) =>
    access.entities.includes(entityId) || access.domains.includes(domainOf(entityId));
  const targets = [...call.entityIds];
  // HA registers each script as a service of its own name: script.good_night runs script.good_night.
  if (call.domain === 'script' && !['turn_on', 'turn_off', 'toggle'].includes(call.service)) {
    targets.push(`script.${call.service}`);
  }
  if (targets.length === 0) {
    if (!access.domains.includes(call.domain)) {
      throw forbidden(
        `Name the entities to control: members may call ${call.domain}.${call.service} only on entities they are allowed (${HOW_TO_ALLOW})`,
      );
    }
    return;
  }
  const refused = targets.find((id) => !allowed(id));
  if (refused) throw forbidden(`Members may not control ${refused}; ${HOW_TO_ALLOW}`);
}
