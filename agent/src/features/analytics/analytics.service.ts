import { Worker } from 'node:worker_threads';
import type {
  AnalyticsSettings,
  AnalyticsStatus,
  AnomalyList,
  Heatmap,
  PredictionList,
  RoutineList,
  SequenceList,
  Suggestion,
  SuggestionList,
  Timeline,
} from '../../contract/analytics.js';
import type { Role } from '../../contract/auth.js';
import type { Db } from '../../db/client.js';
import { inBackground } from '../../lib/background.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditLog } from '../audit/index.js';
import type { AutomationsService } from '../home-assistant/index.js';
import type { HaConnection } from '../home-assistant/index.js';
import type { MemberAccessStore } from '../home-assistant/index.js';
import { analyticsSuggestions } from './analytics.table.js';
import type { EventLog } from './event-log.js';
import type { EventStore } from './event-store.js';
import type { MiningRequest } from './mining.worker.js';
import { heatmapOf } from './mining/index.js';
import type { MiningResult } from './mining/types.js';
import type { AnalyticsSettingsStore, Recorder } from './recorder.js';
import { actedOnEntities, decisionFor } from './suggestion-decisions.js';

const MINE_EVERY_MS = 10 * 60_000;
const HOUR_MS = 3_600_000;

/** Runs the miners on a log; by default in a worker thread (tests of the service pass their own). */
export type MineRunner = (request: MiningRequest) => Promise<{ result: MiningResult; events: number }>;

/** One worker per run: mining is minutes apart, and a worker that ends frees all its memory. */
export const mineInWorker: MineRunner = (request) =>
  new Promise((resolve, reject) => {
    // The compiled file sits beside this one in agent/dist (tsc emits both).
    const worker = new Worker(new URL('./mining.worker.js', import.meta.url));
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      worker.terminate().catch(() => undefined);
    };
    worker.once(
      'message',
      (message: { ok: true; result: MiningResult; events: number } | { ok: false; message: string }) =>
        done(() =>
          message.ok
            ? resolve({ result: message.result, events: message.events })
            : reject(new Error(message.message)),
        ),
    );
    worker.once('error', (error) => done(() => reject(error)));
    worker.once('exit', (code) => done(() => reject(new Error(`the mining worker exited with ${code}`))));
    const { source } = request;
    const transfer =
      'log' in source ? [source.log.entity.buffer, source.log.state.buffer, source.log.at.buffer] : [];
    worker.postMessage(request, transfer as ArrayBuffer[]);
  });

/** A person's whereabouts are theirs: members see them only when listed by entity id. */
const PERSONAL_DOMAINS = new Set(['person', 'device_tracker']);
const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf('.'));
const isAdmin = (role: Role) => role === 'admin' || role === 'superadmin';

/** Midnight of a calendar date in a time zone, Unix ms (through Intl: no tz database of our own). */
function offsetMinutes(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60_000);
}

export function zonedMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utc = Date.UTC(y, m - 1, d);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    throw badRequest(`Invalid query: date: ${date} is not a calendar date`);
  }
  let at = utc - offsetMinutes(utc, timeZone) * 60_000;
  at = utc - offsetMinutes(at, timeZone) * 60_000;
  return at;
}

function validTimeZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

export function createAnalyticsService(deps: {
  db: Db;
  store: EventStore;
  settings: AnalyticsSettingsStore;
  recorder: Recorder;
  connection: HaConnection;
  automations: AutomationsService;
  memberAccess: MemberAccessStore;
  audit: Pick<AuditLog, 'record'>;
  log: Logger;
  now?: () => number;
  runMine?: MineRunner;
  mineEveryMs?: number;
  /** The plan's Home Assistant entity allowance for automations (features/subscription/plan-limits.ts). */
  plan?: { checkEntities(entityIds: string[]): void };
}) {
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ feature: 'analytics' });
  const runMine = deps.runMine ?? mineInWorker;
  const { store, connection } = deps;

  let last: { minedAt: number; result: MiningResult; events: number; timeZone: string } | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  function timeZone(): string {
    return (
      validTimeZone(connection.status().timeZone) ??
      validTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ??
      'UTC'
    );
  }

  const nameOf = (entityId: string) => connection.cache.view(entityId)?.name ?? entityId;

  async function mineOnce() {
    const at = now();
    const zone = timeZone();
    const settings = deps.settings.get();
    const since = at - settings.retentionDays * 86_400_000;
    // Names of every entity HA knows: the worker reads the log itself, so which ones it holds is not known here.
    const names: [string, string][] = connection.cache.list().map((e) => [e.entity_id, e.name]);
    // An in-memory database (unit tests) cannot be opened twice: its log is handed over instead.
    const source =
      store.file && store.file !== ':memory:'
        ? { dbFile: store.file, since }
        : { log: store.load({ since }) };
    const { result, events } = await runMine({ source, now: at, timeZone: zone, names });
    last = { minedAt: at, result, events, timeZone: zone };
    log.info({ events, routines: result.routines.length, ms: now() - at }, 'analytics: mined');
  }

  /** Mines now, or once more after the run in progress; resolves when the result is in. */
  function mine(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await mineOnce();
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    if (!timer && !stopped) {
      timer = setInterval(
        () => inBackground(log, 'analytics: mining', () => mine()),
        deps.mineEveryMs ?? MINE_EVERY_MS,
      );
      timer.unref();
    }
    return running;
  }

  function decisions(): Map<string, { status: 'dismissed' | 'created'; automationId: string | null }> {
    return new Map(
      deps.db
        .select()
        .from(analyticsSuggestions)
        .all()
        .map((row) => [row.id, { status: row.status, automationId: row.automationId }]),
    );
  }

  function decide(id: string, status: 'dismissed' | 'created', automationId: string | null) {
    const updatedAt = new Date(now());
    deps.db
      .insert(analyticsSuggestions)
      .values({ id, status, automationId, updatedAt })
      .onConflictDoUpdate({ target: analyticsSuggestions.id, set: { status, automationId, updatedAt } })
      .run();
  }

  /** Which entities the caller may see analytics of. */
  function visibility(role: Role): (entityId: string) => boolean {
    if (isAdmin(role)) return () => true;
    const access = deps.memberAccess.get();
    const entities = new Set(access.entities);
    const domains = new Set(access.domains);
    return (id) => {
      if (entities.has(id)) return true;
      const domain = domainOf(id);
      return !PERSONAL_DOMAINS.has(domain) && domains.has(domain);
    };
  }

  function basis() {
    return {
      minedAt: last ? new Date(last.minedAt).toISOString() : null,
      days: last?.result.days ?? 0,
      events: last?.events ?? 0,
      timeZone: last?.timeZone ?? timeZone(),
    };
  }

  function suggestions(role: Role): Suggestion[] {
    if (!last) return [];
    const visible = visibility(role);
    const routines = new Set(last.result.routines.filter((r) => visible(r.entityId)).map((r) => r.id));
    const sequences = new Set(
      last.result.sequences
        .filter((s) => visible(s.from.entityId) && visible(s.to.entityId))
        .map((s) => s.id),
    );
    const decided = decisions();
    const current = new Set(last.result.suggestions.map((s) => s.id));
    return last.result.suggestions
      .filter((s) => (s.patternKind === 'routine' ? routines : sequences).has(s.patternId))
      .map((s) => {
        const decision = decisionFor(s.id, decided, current);
        return decision ? { ...s, status: decision.status, automationId: decision.automationId } : s;
      });
  }

  function requireSuggestion(id: string): Suggestion {
    const found = suggestions('admin').find((s) => s.id === id);
    if (!found) throw notFound(`No suggestion with the id ${id}`);
    return found;
  }

  /** A hidden entity answers as an unknown one would. */
  function requireVisible(entityId: string, role: Role) {
    if (!visibility(role)(entityId)) throw notFound(`No history for ${entityId}`);
  }

  return {
    start() {
      // Mining waits for the store: after each backfill, then every 10 minutes.
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
    },
    mine,
    /** Called by the recorder after a backfill. */
    backfilled() {
      inBackground(log, 'analytics: mining', () => mine());
    },

    routines(role: Role): RoutineList {
      const visible = visibility(role);
      return { ...basis(), routines: (last?.result.routines ?? []).filter((r) => visible(r.entityId)) };
    },
    sequences(role: Role): SequenceList {
      const visible = visibility(role);
      return {
        ...basis(),
        sequences: (last?.result.sequences ?? []).filter(
          (s) => visible(s.from.entityId) && visible(s.to.entityId),
        ),
      };
    },
    anomalies(role: Role): AnomalyList {
      const visible = visibility(role);
      return { ...basis(), anomalies: (last?.result.anomalies ?? []).filter((a) => visible(a.entityId)) };
    },
    predictions(role: Role): PredictionList {
      const visible = visibility(role);
      const from = last?.minedAt ?? now();
      return {
        ...basis(),
        from: new Date(from).toISOString(),
        to: new Date(from + HOUR_MS).toISOString(),
        predictions: (last?.result.predictions ?? []).filter((p) => visible(p.entityId)),
      };
    },
    suggestions(role: Role): SuggestionList {
      return { ...basis(), suggestions: suggestions(role) };
    },

    heatmap(role: Role, entityId: string, state?: string): Heatmap {
      requireVisible(entityId, role);
      const eventLog: EventLog = store.load({ entityId });
      if (eventLog.length === 0 && !connection.cache.view(entityId)) {
        throw notFound(`No history for ${entityId}`);
      }
      return heatmapOf(eventLog, entityId, { timeZone: timeZone(), state, nameOf });
    },

    timeline(role: Role, date: string, entityId?: string): Timeline {
      if (entityId) requireVisible(entityId, role);
      const zone = timeZone();
      const start = zonedMidnight(date, zone);
      const next = new Date(start + 36 * HOUR_MS).toISOString().slice(0, 10);
      const end = zonedMidnight(next, zone);
      const visible = visibility(role);
      const byEntity = new Map<string, { at: string; state: string }[]>();
      for (const change of store.statesAt(start, entityId)) {
        if (visible(change.entityId))
          byEntity.set(change.entityId, [{ at: new Date(start).toISOString(), state: change.state }]);
      }
      for (const change of store.range(start, end, entityId)) {
        if (!visible(change.entityId)) continue;
        const list = byEntity.get(change.entityId) ?? [];
        list.push({ at: new Date(change.at).toISOString(), state: change.state });
        byEntity.set(change.entityId, list);
      }
      if (entityId && !byEntity.size && !connection.cache.view(entityId)) {
        throw notFound(`No history for ${entityId}`);
      }
      return {
        date,
        timeZone: zone,
        entities: [...byEntity]
          // An entity with only the state carried over from the day before did nothing that day.
          .filter(([, changes]) => changes.length > 1 || entityId !== undefined)
          .map(([id, changes]) => ({ entityId: id, name: nameOf(id), changes }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },

    status(): AnalyticsStatus {
      const s = store.status();
      const lastBackfill = deps.settings.lastBackfill();
      const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
      return {
        events: s.events,
        entities: s.entities,
        oldest: iso(s.oldest),
        newest: iso(s.newest),
        live: deps.recorder.live,
        lastBackfill: lastBackfill
          ? {
              at: iso(lastBackfill.at)!,
              from: iso(lastBackfill.from)!,
              to: iso(lastBackfill.to)!,
              events: lastBackfill.events,
            }
          : null,
        backfill: deps.recorder.progress,
        bytes: s.bytes,
        minedAt: last ? new Date(last.minedAt).toISOString() : null,
      };
    },

    settings: (): AnalyticsSettings => deps.settings.get(),

    updateSettings(input: AnalyticsSettings): AnalyticsSettings {
      const before = deps.settings.get();
      const next = deps.settings.set(input);
      const deleted = deps.recorder.excludedChanged(next.excludedEntities);
      if (next.retentionDays < before.retentionDays) deps.recorder.prune();
      deps.audit.record({
        type: 'analytics_settings_changed',
        target: 'analytics',
        details: {
          retentionDays: next.retentionDays,
          excludedEntities: next.excludedEntities.length,
          deleted,
        },
      });
      return next;
    },

    deleteHistory(entityId?: string): { deleted: number } {
      const deleted = store.deleteHistory(entityId);
      deps.recorder.historyDeleted(entityId);
      // What was mined from it goes with it.
      if (!entityId) last = null;
      deps.audit.record({
        type: 'analytics_history_deleted',
        target: entityId ?? 'all',
        details: { deleted },
      });
      return { deleted };
    },

    async createAutomation(id: string) {
      const suggestion = requireSuggestion(id);
      if (suggestion.status === 'created') {
        throw conflict(`This suggestion is already the Home Assistant automation ${suggestion.automationId}`);
      }
      if (connection.state !== 'connected') {
        throw conflict('Home Assistant is not connected; connect it to create automations');
      }
      // An automation the hub makes acts on entities: the plan's allowance applies, as for flows.
      deps.plan?.checkEntities(actedOnEntities(suggestion.automation));
      let automationId: string;
      try {
        const created = await deps.automations.create({ config: suggestion.automation });
        if (!created.id) throw new HttpError(502, 'Home Assistant did not keep the automation');
        automationId = created.id;
      } catch (error) {
        // The config is the hub's own: HA refusing it is an upstream fault, not the caller's input.
        if (error instanceof HttpError && error.status === 400) {
          throw new HttpError(502, error.message, error.details);
        }
        throw error;
      }
      deps.automations.markAutomation(automationId, 'analytics', suggestion.id);
      decide(suggestion.id, 'created', automationId);
      deps.audit.record({
        type: 'analytics_automation_created',
        target: automationId,
        details: { suggestionId: suggestion.id, title: suggestion.title },
      });
      return { suggestion: { ...suggestion, status: 'created' as const, automationId }, automationId };
    },

    dismiss(id: string): Suggestion {
      const suggestion = requireSuggestion(id);
      if (suggestion.status === 'created') {
        throw conflict(`This suggestion is already the Home Assistant automation ${suggestion.automationId}`);
      }
      decide(suggestion.id, 'dismissed', null);
      return { ...suggestion, status: 'dismissed' };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
