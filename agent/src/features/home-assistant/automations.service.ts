import { eq } from 'drizzle-orm';
import type { HomeAssistantAdapter } from '../../adapters/home-assistant.js';
import { HomeAssistantError } from '../../adapters/home-assistant.js';
import type {
  AutomationInput,
  HaAutomation,
  HaAutomationDetail,
  HaAutomationList,
} from '../../contract/ha-automations.js';
import type { HaEntity } from '../../contract/home-assistant.js';
import type { Db } from '../../db/client.js';
import { HttpError, badRequest, notFound } from '../../lib/http-error.js';
import { configFromInput, configToYaml, newAutomationId } from './automation-config.js';
import { haAutomationMarks } from './automations.table.js';
import type { HaConnection } from './ha-connection.js';

/** How long a write waits for HA to reload and show the automation's entity (HA answers first). */
const RELOAD_WAIT_MS = 5_000;

export type AutomationSource = 'analytics' | 'console';

/** The hub's marks on the automations it made; issue 16's analytics marks its suggestions here. */
export function createAutomationMarks(db: Db, now: () => number = Date.now) {
  return {
    all(): Map<string, AutomationSource> {
      return new Map(
        db
          .select()
          .from(haAutomationMarks)
          .all()
          .map((row) => [row.automationId, row.source]),
      );
    },
    /** Marks a config id as made by the hub (idempotent: a later mark replaces the earlier one). */
    mark(automationId: string, source: AutomationSource, suggestionId?: string): void {
      db.insert(haAutomationMarks)
        .values({ automationId, source, suggestionId: suggestionId ?? null, createdAt: new Date(now()) })
        .onConflictDoUpdate({
          target: haAutomationMarks.automationId,
          set: { source, suggestionId: suggestionId ?? null },
        })
        .run();
    },
    unmark(automationId: string): void {
      db.delete(haAutomationMarks).where(eq(haAutomationMarks.automationId, automationId)).run();
    },
  };
}

export type AutomationMarks = ReturnType<typeof createAutomationMarks>;

function configId(entity: HaEntity): string | null {
  const id = entity.attributes.id;
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : null;
}

function toAutomation(entity: HaEntity, marks: Map<string, AutomationSource>): HaAutomation {
  const id = configId(entity);
  const last = entity.attributes.last_triggered;
  const mode = entity.attributes.mode;
  const description = entity.attributes.description;
  return {
    id,
    entityId: entity.entity_id,
    alias: entity.name,
    description: typeof description === 'string' && description ? description : null,
    state: entity.state,
    lastTriggered: typeof last === 'string' && last ? new Date(last).toISOString() : null,
    mode: typeof mode === 'string' ? mode : null,
    createdBy: id ? (marks.get(id) ?? null) : null,
    editable: id !== null,
  };
}

/** HA's REST refusals of a config (its own validation) are the caller's bad input, not a gateway fault. */
function fromConfigApi(error: unknown, what: string): unknown {
  if (error instanceof HomeAssistantError && error.haCode === 'http_400') {
    return badRequest(`Home Assistant refused ${what}: ${error.message}`);
  }
  // HA's config API answers 401 to a valid token of a non-admin HA user (require_admin): the
  // connection itself is fine, so say what is missing rather than "token rejected".
  if (error instanceof HomeAssistantError && error.kind === 'auth_invalid') {
    return new HttpError(
      502,
      `Home Assistant refused ${what}: editing automations needs the long-lived token of a Home Assistant administrator`,
    );
  }
  return error;
}

/**
 * Home Assistant's automations: the `automation.*` entities from the entity cache, their configs
 * through HA's automation config API, and the hub's marks on the ones it made.
 */
export function createAutomationsService(deps: {
  connection: HaConnection;
  adapter: HomeAssistantAdapter;
  marks: AutomationMarks;
  now?: () => number;
  reloadWaitMs?: number;
}) {
  const { connection, adapter, marks } = deps;
  const now = deps.now ?? Date.now;
  const reloadWaitMs = deps.reloadWaitMs ?? RELOAD_WAIT_MS;

  // Writes wait for HA's reload to show the change; one cache listener serves every waiter.
  const waiters = new Set<() => void>();
  connection.onChange(() => {
    for (const check of [...waiters]) check();
  });

  function entities(): HaEntity[] {
    connection.requireSession();
    return connection.cache.list().filter((e) => e.domain === 'automation');
  }

  function byId(id: string): HaEntity | undefined {
    return entities().find((e) => configId(e) === id);
  }

  /** Resolves when `done()` holds in the cache (HA reloads automations after it answers), or after the wait. */
  function waitFor(done: () => boolean): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(false);
      }, reloadWaitMs);
      timer.unref();
      waiters.add(check);
    });
  }

  function requireAutomation(id: string): HaEntity {
    const entity = byId(id);
    if (!entity) throw notFound(`Home Assistant has no automation with the id ${id}`);
    return entity;
  }

  async function viewAfterWrite(id: string, before: string | null): Promise<HaAutomation> {
    // The entity appears (or its last_updated moves) once HA has reloaded.
    await waitFor(() => {
      const e = byId(id);
      return e !== undefined && e.last_updated !== before;
    });
    const entity = byId(id);
    if (entity) return toAutomation(entity, marks.all());
    // HA saved the config but has not shown the entity yet (or its config is broken).
    return {
      id,
      entityId: '',
      alias: '',
      description: null,
      state: 'unavailable',
      lastTriggered: null,
      mode: null,
      createdBy: marks.all().get(id) ?? null,
      editable: true,
    };
  }

  async function callOn(id: string, service: 'turn_on' | 'turn_off' | 'trigger'): Promise<HaAutomation> {
    const entity = requireAutomation(id);
    const before = entity.last_updated;
    await connection.requireSession().callService('automation', service, {}, { entity_id: entity.entity_id });
    // Turning on one that is on changes nothing in HA: wait for the outcome, not for an event.
    await waitFor(() => {
      const e = byId(id);
      if (!e) return true;
      if (service === 'turn_on') return e.state === 'on';
      if (service === 'turn_off') return e.state === 'off';
      return e.last_updated !== before;
    });
    return toAutomation(byId(id) ?? entity, marks.all());
  }

  return {
    /** Every automation for admins; members read the same list (the states /api/ha/entities already shows them), never the configs. */
    list(): HaAutomationList {
      const all = marks.all();
      return {
        automations: entities()
          .map((e) => toAutomation(e, all))
          .sort((a, b) => a.alias.localeCompare(b.alias)),
      };
    },

    /** The config and its YAML: admins only, a config can hold webhook ids and notify targets. */
    async get(id: string): Promise<HaAutomationDetail> {
      const entity = requireAutomation(id);
      let config: Record<string, unknown>;
      try {
        config = await adapter.automationConfig(connection.requireTarget(), id);
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) {
          throw notFound(
            `Home Assistant keeps no editable config for ${entity.entity_id} (a YAML-file automation)`,
          );
        }
        throw error;
      }
      return {
        automation: toAutomation(entity, marks.all()),
        config: config as HaAutomationDetail['config'],
        yaml: configToYaml(config),
      };
    },

    /** Validated before it is sent: a bad config never reaches HA. */
    async create(input: AutomationInput): Promise<HaAutomation> {
      connection.requireSession();
      const taken = new Set(entities().map(configId));
      const id = newAutomationId(now(), (candidate) => taken.has(candidate));
      const config = configFromInput(input, id);
      try {
        await adapter.saveAutomationConfig(connection.requireTarget(), id, config);
      } catch (error) {
        throw fromConfigApi(error, 'the automation');
      }
      marks.mark(id, 'console');
      return viewAfterWrite(id, null);
    },

    async update(id: string, input: AutomationInput): Promise<HaAutomation> {
      const entity = requireAutomation(id);
      const config = configFromInput(input, id);
      try {
        await adapter.saveAutomationConfig(connection.requireTarget(), id, config);
      } catch (error) {
        throw fromConfigApi(error, 'the automation');
      }
      return viewAfterWrite(id, entity.last_updated);
    },

    async remove(id: string): Promise<void> {
      requireAutomation(id);
      try {
        await adapter.deleteAutomationConfig(connection.requireTarget(), id);
      } catch (error) {
        throw fromConfigApi(error, 'to delete the automation');
      }
      marks.unmark(id);
      await waitFor(() => byId(id) === undefined);
    },

    enable: (id: string) => callOn(id, 'turn_on'),
    disable: (id: string) => callOn(id, 'turn_off'),
    trigger: (id: string) => callOn(id, 'trigger'),

    /** For issue 16: an automation made from an analytics suggestion (or on /automations). */
    markAutomation: (id: string, source: AutomationSource, suggestionId?: string) =>
      marks.mark(id, source, suggestionId),
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;
