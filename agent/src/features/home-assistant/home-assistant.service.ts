import type {
  HaLogbookEntry as RawLogbookEntry,
  HomeAssistantAdapter,
} from '../../adapters/home-assistant.js';
import { probeHomeAssistant } from '../../adapters/home-assistant-probe.js';
import {
  HA_MAX_RANGE_DAYS,
  USER_SERVICE_DOMAINS,
  USER_SERVICES,
  type HaConnectionTestResult,
  type HaEntity,
  type HaEntityList,
  type HaHistory,
  type HaLogbook,
  type HaLogbookEntry,
  type HaServiceCallResult,
  type HaMemberAccess,
  type HaMyAccess,
  type HaSettings,
} from '../../contract/home-assistant.js';
import type { Role } from '../../contract/auth.js';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sameOrigin } from '../../lib/origin.js';
import { createHaConfigStore, type HaConfigStore, type SettingsStore } from './ha-config.js';
import { createHaConnection, type HaConnection, type LiveChannel } from './ha-connection.js';
import { withoutCredentials } from './entity-cache.js';
import { checkMemberTargets, createMemberAccessStore, type MemberAccessStore } from './member-access.js';

const DAY_MS = 86_400_000;
const isAdmin = (role: Role) => role === 'admin' || role === 'superadmin';
const userDomains: readonly string[] = USER_SERVICE_DOMAINS;

/**
 * Whether a role may call services of a domain: users at most the everyday domains (and of those
 * only what an admin has allowed them, see member-access.ts), admins all.
 */
export function mayCallDomain(role: Role, domain: string): boolean {
  return isAdmin(role) || userDomains.includes(domain);
}

/** Whether a role may call one service: users only the everyday services of their domains. */
export function mayCallService(role: Role, domain: string, service: string): boolean {
  if (isAdmin(role)) return true;
  const allowed: readonly string[] | undefined = (USER_SERVICES as Record<string, readonly string[]>)[domain];
  if (!allowed) return false;
  // A script runs through its own service as well (script.<object_id>).
  return allowed.includes(service) || (domain === 'script' && service !== 'reload');
}

function resolveRange(query: { start?: string; end?: string }, now: number): { start: Date; end: Date } {
  const end = query.end ? new Date(query.end) : new Date(now);
  const start = query.start ? new Date(query.start) : new Date(end.getTime() - DAY_MS);
  if (start.getTime() >= end.getTime()) throw badRequest('The start must be before the end');
  if (end.getTime() - start.getTime() > HA_MAX_RANGE_DAYS * DAY_MS) {
    throw badRequest(`A range may cover at most ${HA_MAX_RANGE_DAYS} days`);
  }
  return { start, end };
}

function whenIso(when: string | number): string {
  // The REST logbook sends ISO strings; the WebSocket logbook sends epoch seconds.
  return typeof when === 'number' ? new Date(when * 1000).toISOString() : new Date(when).toISOString();
}

function normalizeLogbook(entry: RawLogbookEntry): HaLogbookEntry {
  const entityId = entry.entity_id ?? null;
  const state = entry.state ?? null;
  return {
    when: whenIso(entry.when),
    name: entry.name ?? entityId ?? 'Home Assistant',
    message:
      entry.message ??
      (state === 'on'
        ? 'turned on'
        : state === 'off'
          ? 'turned off'
          : state !== null
            ? `changed to ${state}`
            : ''),
    entity_id: entityId,
    domain: entry.domain ?? (entityId ? entityId.slice(0, entityId.indexOf('.')) : null),
    state,
    byUser: Boolean(entry.context_user_id),
  };
}

export function createHomeAssistantService(deps: {
  connection: HaConnection;
  adapter: HomeAssistantAdapter;
  config: HaConfigStore;
  memberAccess: MemberAccessStore;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { connection, config, memberAccess } = deps;

  function settingsView(): HaSettings {
    const stored = config.describe();
    const status = connection.status();
    return {
      configured: stored.url !== null && stored.tokenSet,
      url: stored.url,
      tokenSet: stored.tokenSet,
      source: stored.source,
      updatedAt: stored.updatedAt,
      state: status.state,
      message: status.message,
    };
  }

  return {
    settings: settingsView,

    async saveSettings(input: { url: string; token?: string }): Promise<HaSettings> {
      if (config.save(input) === 'token_required') {
        throw badRequest(
          'Enter the long-lived access token from your Home Assistant profile (a new address needs the token again)',
        );
      }
      await connection.restart();
      return settingsView();
    },

    async clearSettings(): Promise<HaSettings> {
      config.clear();
      await connection.restart();
      return settingsView();
    },

    /** What members may control (admins read and set it). */
    memberAccess: () => memberAccess.get(),
    /** What this role may control; members read their list here, not the admins' settings route. */
    myAccess: (role: Role): HaMyAccess =>
      isAdmin(role) ? { all: true, domains: [], entities: [] } : { all: false, ...memberAccess.get() },
    setMemberAccess: (input: HaMemberAccess) => memberAccess.set(input),

    listEntities(): HaEntityList {
      connection.requireSession();
      return { entities: connection.cache.list(), areas: connection.cache.areaList() };
    },

    getEntity(entityId: string): HaEntity {
      connection.requireSession();
      const entity = connection.cache.view(entityId);
      if (!entity) throw notFound(`Home Assistant has no entity ${entityId}`);
      return entity;
    },

    async callService(
      role: Role,
      domain: string,
      service: string,
      input: { entity_id?: string | string[]; service_data: Record<string, unknown> },
    ): Promise<HaServiceCallResult> {
      if (!mayCallDomain(role, domain)) {
        throw forbidden(
          `Only administrators may call ${domain} services; members may be allowed ${USER_SERVICE_DOMAINS.join(', ')}`,
        );
      }
      if (!mayCallService(role, domain, service)) {
        throw forbidden(
          `Only administrators may call ${domain}.${service}; you may call ${USER_SERVICES[domain as keyof typeof USER_SERVICES].join(', ')}`,
        );
      }
      const entityIds = input.entity_id === undefined ? [] : [input.entity_id].flat();
      // Targets go in `target`, not in the service data, so HA applies its own target rules.
      const { entity_id: _ignored, ...serviceData } = input.service_data;
      if (!isAdmin(role)) {
        checkMemberTargets(memberAccess.get(), { domain, service, entityIds, serviceData });
      }
      const session = connection.requireSession();
      const result = await session.callService(
        domain,
        service,
        serviceData,
        entityIds.length ? { entity_id: entityIds } : {},
      );
      return { domain, service, entityIds, contextId: result.context?.id ?? null };
    },

    async logbook(query: { start?: string; end?: string; entity?: string }): Promise<HaLogbook> {
      const { start, end } = resolveRange(query, now());
      const entries = await deps.adapter.logbook(connection.requireTarget(), {
        start,
        end,
        entity: query.entity,
      });
      if (!Array.isArray(entries))
        throw new HttpError(502, 'Home Assistant sent a logbook that is not a list');
      return {
        start: start.toISOString(),
        end: end.toISOString(),
        entries: entries.map(normalizeLogbook).sort((a, b) => b.when.localeCompare(a.when)),
      };
    },

    async history(query: {
      entity: string[];
      start?: string;
      end?: string;
      minimal: boolean;
    }): Promise<HaHistory> {
      const { start, end } = resolveRange(query, now());
      const series = await deps.adapter.history(connection.requireTarget(), {
        start,
        end,
        entityIds: query.entity,
        minimal: query.minimal,
      });
      if (!Array.isArray(series))
        throw new HttpError(502, 'Home Assistant sent a history that is not a list');
      return {
        start: start.toISOString(),
        end: end.toISOString(),
        series: series
          .filter((rows) => Array.isArray(rows) && rows.length > 0)
          .map((rows) => {
            const entityId = rows[0]!.entity_id ?? '';
            return {
              entity_id: entityId,
              name: connection.cache.view(entityId)?.name ?? entityId,
              points: rows.map((r) => ({
                state: r.state,
                last_changed: r.last_changed,
                attributes: r.attributes ? withoutCredentials(r.attributes) : null,
              })),
            };
          }),
      };
    },

    status: () => connection.status(),
    activity: () => connection.activity(),

    /** Tests the stored connection, or (admins only) a URL and token that are not saved yet. */
    async connectionTest(input: { url?: string; token?: string }): Promise<HaConnectionTestResult> {
      const stored = config.load();
      const url = input.url ?? stored?.url;
      if (
        input.url !== undefined &&
        input.token === undefined &&
        stored &&
        !sameOrigin(stored.url, input.url)
      ) {
        throw badRequest(
          'Enter the token to test another address: the stored token is only sent to the Home Assistant it was saved for',
        );
      }
      const token = input.token ?? stored?.token;
      if (!url || !token) {
        throw badRequest(
          url ? 'Enter the long-lived access token to test' : 'Enter the address of Home Assistant to test',
        );
      }
      const result = await probeHomeAssistant({ url, token });
      return { ...result, testedAt: now() };
    },
  };
}

/**
 * Builds the feature: the sealed settings (seeded from HA_URL/HA_TOKEN at first start), the one
 * persistent connection (started here), and the service the routes and the dashboard use.
 */
export function startHomeAssistant(deps: {
  adapter: HomeAssistantAdapter;
  settings: SettingsStore;
  secrets: SecretBox;
  env: { HA_URL?: string; HA_TOKEN?: string };
  live?: LiveChannel;
  log: Logger;
  now?: () => number;
}) {
  const config = createHaConfigStore(deps);
  if (config.seedFromEnvironment(deps.env)) {
    deps.log.info('stored the Home Assistant connection from HA_URL and HA_TOKEN');
  }
  const connection = createHaConnection({
    adapter: deps.adapter,
    config,
    live: deps.live,
    log: deps.log,
    now: deps.now,
  });
  connection.start();
  const service = createHomeAssistantService({
    connection,
    adapter: deps.adapter,
    config,
    memberAccess: createMemberAccessStore(deps.settings),
    log: deps.log,
    now: deps.now,
  });
  return { ...service, health: async () => connection.health(), stop: connection.stop, connection };
}

export type HomeAssistantService = ReturnType<typeof startHomeAssistant>;
