import { z } from 'zod';
import type { HomeAssistantAdapter } from '../../adapters/home-assistant.js';
import {
  analyticsSettingsSchema,
  DEFAULT_ANALYTICS_SETTINGS,
  type AnalyticsSettings,
} from '../../contract/analytics.js';
import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import type { SettingsStore } from '../home-assistant/index.js';
import type { HaConnection, HaStateTransition } from '../home-assistant/index.js';
import type { StateChange } from './event-log.js';
import type { EventStore } from './event-store.js';

export const ANALYTICS_SETTINGS_KEY = 'analytics.settings';
/** The last moment the store is known to hold every change up to (a backfill's end, or live time). */
export const ANALYTICS_CURSOR_KEY = 'analytics.cursor';
export const ANALYTICS_LAST_BACKFILL_KEY = 'analytics.last-backfill';

const DAY_MS = 86_400_000;
const cursorSchema = z.object({ at: z.number() });
const lastBackfillSchema = z.object({ at: z.number(), from: z.number(), to: z.number(), events: z.number() });
export type LastBackfill = z.infer<typeof lastBackfillSchema>;

export interface RecorderTimings {
  /** Live changes are written at most this often… */
  flushMs: number;
  /** …or as soon as this many are waiting. */
  flushSize: number;
  /** Entities per history request (HA's filter_entity_id). */
  historyChunk: number;
  /** A backfill asks for at most this much time per request, so a 90-day backfill is many small answers. */
  historyWindowMs: number;
  /** How often old changes are pruned. */
  pruneEveryMs: number;
  /** The live cursor stays this far behind: a change in flight when the socket drops is fetched again. */
  cursorMarginMs: number;
}

export const DEFAULT_RECORDER_TIMINGS: RecorderTimings = {
  flushMs: 1_000,
  flushSize: 500,
  historyChunk: 50,
  historyWindowMs: 7 * DAY_MS,
  pruneEveryMs: DAY_MS,
  cursorMarginMs: 60_000,
};

/**
 * States that are not behaviour. 'unavailable' and 'unknown' are the device's link or HA's
 * start-up, not something a person did: kept, they would be mined as routines ("the plug goes
 * unavailable at 03:00"), and a device that drops off and returns would count as two changes.
 */
const NOT_BEHAVIOUR = new Set(['unavailable', 'unknown']);

/**
 * Continuous sensors (a temperature, a power reading) are measurements, not behaviour: a sensor.*
 * with a numeric state and a unit or a state class. HA's logbook leaves them out the same way; kept,
 * they would be most of the store and none of the patterns.
 */
export function isMeasurement(
  entityId: string,
  state: string,
  attributes: Readonly<Record<string, unknown>>,
) {
  if (!entityId.startsWith('sensor.')) return false;
  if (attributes.unit_of_measurement == null && attributes.state_class == null) return false;
  return state.trim() !== '' && Number.isFinite(Number(state));
}

/** The analytics settings (retention, opted-out entities) in the settings table. */
export function createAnalyticsSettings(settings: SettingsStore) {
  return {
    get(): AnalyticsSettings {
      return settings.get(ANALYTICS_SETTINGS_KEY, analyticsSettingsSchema) ?? DEFAULT_ANALYTICS_SETTINGS;
    },
    set(value: AnalyticsSettings): AnalyticsSettings {
      const next = { ...value, excludedEntities: [...new Set(value.excludedEntities)].sort() };
      settings.set(ANALYTICS_SETTINGS_KEY, next);
      return next;
    },
    cursor: (): number | null => settings.get(ANALYTICS_CURSOR_KEY, cursorSchema)?.at ?? null,
    setCursor: (at: number) => settings.set(ANALYTICS_CURSOR_KEY, { at }),
    lastBackfill: (): LastBackfill | null =>
      settings.get(ANALYTICS_LAST_BACKFILL_KEY, lastBackfillSchema) ?? null,
    setLastBackfill: (value: LastBackfill) => settings.set(ANALYTICS_LAST_BACKFILL_KEY, value),
    clearProgress() {
      settings.delete(ANALYTICS_CURSOR_KEY);
      settings.delete(ANALYTICS_LAST_BACKFILL_KEY);
    },
  };
}
export type AnalyticsSettingsStore = ReturnType<typeof createAnalyticsSettings>;

/**
 * Keeps the event store current: live changes from HA's state_changed (buffered, written in
 * batches), a backfill from HA's history on every (re)connect from where the store left off, and
 * the daily prune by the retention setting.
 */
export function createRecorder(deps: {
  connection: HaConnection;
  adapter: HomeAssistantAdapter;
  store: EventStore;
  settings: AnalyticsSettingsStore;
  log: Logger;
  now?: () => number;
  timings?: Partial<RecorderTimings>;
  /** After each completed backfill (the service mines then). */
  onBackfilled?: () => void;
}) {
  const now = deps.now ?? Date.now;
  const t = { ...DEFAULT_RECORDER_TIMINGS, ...deps.timings };
  const log = deps.log.child({ feature: 'analytics' });
  const { connection, store, settings } = deps;

  let excluded = new Set(settings.get().excludedEntities);
  let buffer: StateChange[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  let pruneTimer: NodeJS.Timeout | null = null;
  /** The last state recorded per entity, so a return from 'unavailable' to the same state is no change. */
  const lastState = new Map<string, string>();
  let stopped = false;
  let wasConnected = false;
  /** A backfill completed while the current connection has been up: live changes since are complete. */
  let liveComplete = false;
  let lastCursorWrite = 0;
  let backfillRun: Promise<void> | null = null;
  let backfillAgain = false;
  let progress: { done: number; total: number } | null = null;
  let stored = 0;

  function keep(entityId: string, state: string, attributes: Readonly<Record<string, unknown>>): boolean {
    if (excluded.has(entityId) || NOT_BEHAVIOUR.has(state)) return false;
    if (isMeasurement(entityId, state, attributes)) return false;
    if (lastState.get(entityId) === state) return false;
    lastState.set(entityId, state);
    return true;
  }

  function onTransition(transition: HaStateTransition) {
    if (stopped || !Number.isFinite(transition.at)) return;
    if (!keep(transition.entityId, transition.state, transition.attributes)) return;
    buffer.push({ entityId: transition.entityId, state: transition.state, at: transition.at });
    if (buffer.length >= t.flushSize) flush();
    else if (!flushTimer) {
      flushTimer = setTimeout(flush, t.flushMs);
      flushTimer.unref();
    }
  }

  function flush() {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    const batch = buffer;
    buffer = [];
    try {
      stored += store.ingest(batch);
    } catch (err) {
      // A full or locked disk: the changes are lost from the store but HA keeps them; the next
      // backfill (from the cursor, which did not move) brings them back.
      log.warn({ err, changes: batch.length }, 'storing Home Assistant state changes failed');
      return;
    }
    advanceCursor();
  }

  /** While live changes are complete, the cursor follows them (at most once a minute: a settings write). */
  function advanceCursor(force = false) {
    if (!liveComplete || connection.state !== 'connected') return;
    const at = now();
    if (!force && at - lastCursorWrite < t.cursorMarginMs) return;
    lastCursorWrite = at;
    const next = at - t.cursorMarginMs;
    if (next > (settings.cursor() ?? 0)) settings.setCursor(next);
  }

  function entitiesToFill(): string[] {
    const ids: string[] = [];
    for (const entity of connection.cache.list()) {
      if (excluded.has(entity.entity_id)) continue;
      if (isMeasurement(entity.entity_id, entity.state, entity.attributes)) continue;
      ids.push(entity.entity_id);
    }
    return ids.sort();
  }

  /** From max(cursor, now − retention) to now, window by window; the cursor follows each window. */
  async function backfill(): Promise<void> {
    const target = connection.requireTarget();
    const to = now();
    const retentionStart = to - settings.get().retentionDays * DAY_MS;
    const from = Math.max(settings.cursor() ?? retentionStart, retentionStart);
    const entities = entitiesToFill();
    const windows = Math.max(1, Math.ceil((to - from) / t.historyWindowMs));
    progress = { done: 0, total: entities.length * windows };
    let events = 0;
    try {
      for (let w = 0; w < windows; w++) {
        const start = from + w * t.historyWindowMs;
        const end = Math.min(to, start + t.historyWindowMs);
        for (let i = 0; i < entities.length; i += t.historyChunk) {
          if (stopped || connection.state !== 'connected') throw new Error('the connection went down');
          const chunk = entities.slice(i, i + t.historyChunk);
          const series = await deps.adapter.history(target, {
            start: new Date(start),
            end: new Date(end),
            entityIds: chunk,
            minimal: true,
            noAttributes: true,
          });
          events += store.ingest(changesFrom(series, start));
          progress = { done: progress.done + chunk.length, total: progress.total };
        }
        // Every entity is covered up to `end`: a restart or a gap resumes from here.
        settings.setCursor(end);
      }
    } finally {
      progress = null;
    }
    stored += events;
    settings.setLastBackfill({ at: now(), from, to, events });
    log.info(
      { from: new Date(from).toISOString(), events, entities: entities.length },
      'analytics backfill done',
    );
  }

  /**
   * HA's series, one per entity in request order (empty ones left out). The first row is the state
   * in effect at `start`, dated to `start`: not a change then, but the state the next row changes
   * from. Minimal rows between the first and last carry only state and last_changed.
   */
  function changesFrom(
    series: { entity_id?: string; state: string; last_changed: string }[][],
    start: number,
  ) {
    const changes: StateChange[] = [];
    for (const rows of series) {
      const entityId = rows[0]?.entity_id;
      if (!entityId || excluded.has(entityId)) continue;
      const attributes = connection.cache.view(entityId)?.attributes ?? {};
      let previous: string | undefined;
      for (const row of rows) {
        const at = Date.parse(row.last_changed);
        if (!Number.isFinite(at)) continue;
        if (at <= start) {
          previous = row.state;
          continue;
        }
        if (NOT_BEHAVIOUR.has(row.state) || row.state === previous) continue;
        previous = row.state;
        if (isMeasurement(entityId, row.state, attributes)) continue;
        changes.push({ entityId, state: row.state, at });
      }
    }
    return changes;
  }

  function requestBackfill() {
    if (backfillRun) {
      backfillAgain = true;
      return;
    }
    backfillRun = (async () => {
      try {
        do {
          backfillAgain = false;
          await backfill();
          if (connection.state === 'connected') {
            liveComplete = true;
            advanceCursor(true);
          }
          deps.onBackfilled?.();
        } while (backfillAgain && !stopped);
      } finally {
        backfillRun = null;
      }
    })();
    inBackground(log, 'analytics: backfilling from Home Assistant history', backfillRun);
  }

  function onConnection() {
    const connected = connection.state === 'connected';
    if (connected && !wasConnected && !stopped) requestBackfill();
    if (!connected && wasConnected) {
      // Changes from now on arrive only through the next backfill.
      flush();
      liveComplete = false;
      lastState.clear();
    }
    wasConnected = connected;
  }

  function prune() {
    const cutoff = now() - settings.get().retentionDays * DAY_MS;
    const deleted = store.prune(cutoff);
    if (deleted) log.info({ deleted }, 'analytics: pruned changes older than the retention');
    return deleted;
  }

  function schedulePrune() {
    pruneTimer = setTimeout(() => {
      try {
        prune();
      } catch (err) {
        log.warn({ err }, 'analytics: pruning failed');
      }
      if (!stopped) schedulePrune();
    }, t.pruneEveryMs);
    pruneTimer.unref();
  }

  const unsubscribe = connection.onStateTransition(onTransition);
  connection.onChange((change) => {
    if (change.kind === 'connection') onConnection();
  });

  return {
    start() {
      try {
        prune();
      } catch (err) {
        log.warn({ err }, 'analytics: pruning failed');
      }
      schedulePrune();
      onConnection();
    },
    stop() {
      if (stopped) return;
      flush();
      advanceCursor(true);
      stopped = true;
      unsubscribe();
      if (pruneTimer) clearTimeout(pruneTimer);
      pruneTimer = null;
    },
    flush,
    prune,
    /** Starts a backfill now (or after the running one). */
    requestBackfill,
    /** Resolves when no backfill is running. */
    async idle(): Promise<void> {
      while (backfillRun) await backfillRun.catch(() => undefined);
    },
    get live() {
      return !stopped && connection.state === 'connected';
    },
    get progress() {
      return progress;
    },
    get stored() {
      return stored;
    },
    /** The opt-out list changed: deletes the newly excluded entities' history and stops recording them. */
    excludedChanged(next: readonly string[]): number {
      const added = next.filter((id) => !excluded.has(id));
      excluded = new Set(next);
      buffer = buffer.filter((c) => !excluded.has(c.entityId));
      let deleted = 0;
      for (const id of added) {
        deleted += store.deleteHistory(id);
        lastState.delete(id);
      }
      return deleted;
    },
    /** After "delete my history": nothing is known of past states any more. */
    historyDeleted(entityId?: string) {
      if (entityId) lastState.delete(entityId);
      else lastState.clear();
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
