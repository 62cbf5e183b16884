import {
  HomeAssistantError,
  TOKEN_REJECTED_MESSAGE,
  type HaSession,
  type HaStateChangedEvent,
  type HomeAssistantAdapter,
} from '../../adapters/home-assistant.js';
import {
  HA_ENTITIES_TOPIC,
  type HaActivity,
  type HaConnectionEvent,
  type HaConnectionHealth,
  type HaConnectionState,
  type HaHealthReport,
  type HaLiveMessage,
  type HaStatus,
} from '../../contract/home-assistant.js';
import type { Logger } from '../../lib/logger.js';
import { inBackground } from '../../lib/background.js';
import { EntityCache, type RegistrySnapshot } from './entity-cache.js';
import type { HaConfig, HaConfigStore } from './ha-config.js';

/** What this feature needs from the live hub. */
export interface LiveChannel {
  registerTopic(prefix: string, options?: object): void;
  hasSubscribers(topic: string): boolean;
  publish(topic: string, data: unknown): void;
}

export interface HaConnectionTimings {
  /** How often the connection is checked with a ping. */
  pingIntervalMs: number;
  /** A ping without a pong after this long counts as missed; two missed in a row force a reconnect. */
  pingTimeoutMs: number;
  /** A round trip above this makes the connection degraded. */
  slowPingMs: number;
  /** Back-off of the agent's own connection attempts (the library's reconnects have theirs). */
  retryInitialMs: number;
  retryMaxMs: number;
  /** Entity changes are sent to browsers in batches at most this often. */
  liveFlushMs: number;
  /** Registry change events are followed by one reload after this quiet time. */
  registryReloadDelayMs: number;
}

export const DEFAULT_TIMINGS: HaConnectionTimings = {
  pingIntervalMs: 5_000,
  pingTimeoutMs: 3_000,
  slowPingMs: 1_000,
  retryInitialMs: 1_000,
  retryMaxMs: 30_000,
  liveFlushMs: 200,
  // Short enough that a satellite adopted in HA shows within 2 s, long enough to coalesce the
  // burst of device and entity registry events one adoption fires.
  registryReloadDelayMs: 400,
};

/** What changed in the connection's cache, for features that follow part of it. */
export type HaCacheChange =
  { kind: 'registries' } | { kind: 'state'; entityId: string } | { kind: 'connection' };

/** A state string that actually changed (not an attribute-only update), for issue 16's event store. */
export interface HaStateTransition {
  entityId: string;
  state: string;
  /** Unix ms of HA's last_changed. */
  at: number;
  /** The new state's attributes (read only): a listener tells measurements from behaviour by them. */
  attributes: Readonly<Record<string, unknown>>;
}

const MAX_PINGS = 60;
const MAX_EVENTS = 50;
const MAX_ACTIVITY = 200;
const HISTORY_CHUNK = 50;

/**
 * The one persistent connection to Home Assistant: connects with the stored URL and token, keeps
 * the entity cache current from state_changed events, refills the gap from history after a
 * reconnect, measures health with pings, and pushes changes to browsers on `ha.entities`.
 * The library reconnects a lost socket by itself (and renews the subscriptions); this class
 * covers the first connection with its own exponential back-off and stops for a rejected token.
 */
export function createHaConnection(deps: {
  adapter: HomeAssistantAdapter;
  config: HaConfigStore;
  live?: LiveChannel;
  log: Logger;
  now?: () => number;
  timings?: Partial<HaConnectionTimings>;
}) {
  const now = deps.now ?? Date.now;
  const t = { ...DEFAULT_TIMINGS, ...deps.timings };
  const log = deps.log.child({ feature: 'home-assistant' });
  const cache = new EntityCache();
  deps.live?.registerTopic(HA_ENTITIES_TOPIC);

  let generation = 0;
  let target: HaConfig | null = null;
  let session: HaSession | null = null;
  let state: HaConnectionState = 'not_configured';
  let message: string | null = null;
  let everConnected = false;
  let retryAttempts = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let nextRetryAt: number | null = null;
  let connectedSince: number | null = null;
  let haVersion: string | null = null;
  let locationName: string | null = null;
  let timeZone: string | null = null;
  let registryProblem: string | null = null;
  let pingTimer: NodeJS.Timeout | null = null;
  let missedPings = 0;
  let disconnectedAt: number | null = null;
  let lastEventAt: number | null = null;
  let lastRefill: HaStatus['lastRefill'] = null;
  let eventsReceived = 0;
  let registryTimer: NodeJS.Timeout | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  const pings: { at: number; ms: number | null }[] = [];
  const events: HaConnectionEvent[] = [];
  const activity: HaActivity[] = [];
  const pendingChanged = new Set<string>();
  const pendingRemoved = new Set<string>();
  const settleWaiters = new Set<() => void>();
  const changeListeners = new Set<(change: HaCacheChange) => void>();
  const transitionListeners = new Set<(transition: HaStateTransition) => void>();
  function cacheChanged(change: HaCacheChange) {
    for (const listener of changeListeners) listener(change);
  }
  let lastPublished: { state: HaConnectionState; health: HaConnectionHealth; message: string | null } | null =
    null;

  function record(kind: HaConnectionEvent['kind'], text: string) {
    events.push({ at: now(), kind, message: text });
    if (events.length > MAX_EVENTS) events.shift();
  }

  function publish(data: HaLiveMessage) {
    deps.live?.publish(HA_ENTITIES_TOPIC, data);
  }

  function currentHealth(): { health: HaConnectionHealth; reason: string | null } {
    if (state === 'not_configured') return { health: 'not_configured', reason: message };
    if (state !== 'connected') return { health: 'disconnected', reason: message };
    if (missedPings > 0) return { health: 'degraded', reason: 'Home Assistant did not answer the last ping' };
    const last = pings.at(-1)?.ms;
    if (last != null && last > t.slowPingMs) {
      return { health: 'degraded', reason: `Home Assistant answers slowly (${Math.round(last)} ms)` };
    }
    if (registryProblem) return { health: 'degraded', reason: registryProblem };
    return { health: 'healthy', reason: null };
  }

  function announce() {
    const { health, reason } = currentHealth();
    if (
      lastPublished &&
      lastPublished.state === state &&
      lastPublished.health === health &&
      lastPublished.message === reason
    ) {
      return;
    }
    lastPublished = { state, health, message: reason };
    publish({ type: 'connection', state, health, message: reason });
  }

  function setState(next: HaConnectionState, text: string | null) {
    state = next;
    message = text;
    announce();
    cacheChanged({ kind: 'connection' });
    if (next !== 'connecting' && next !== 'reconnecting') {
      for (const wake of settleWaiters) wake();
      settleWaiters.clear();
    }
  }

  function clearTimers() {
    for (const timer of [retryTimer, pingTimer, registryTimer, flushTimer]) if (timer) clearTimeout(timer);
    retryTimer = pingTimer = registryTimer = flushTimer = null;
    nextRetryAt = null;
  }

  function teardown() {
    generation++;
    clearTimers();
    session?.close();
    session = null;
    target = null;
    cache.clear();
    pendingChanged.clear();
    pendingRemoved.clear();
    pings.length = 0;
    activity.length = 0;
    missedPings = 0;
    retryAttempts = 0;
    everConnected = false;
    connectedSince = null;
    registryProblem = null;
    disconnectedAt = null;
    lastEventAt = null;
    lastRefill = null;
    eventsReceived = 0;
  }

  // ---- connecting -----------------------------------------------------------------------------

  function scheduleRetry(gen: number, reason: string) {
    retryAttempts++;
    const delay = Math.min(t.retryInitialMs * 2 ** (retryAttempts - 1), t.retryMaxMs);
    nextRetryAt = now() + delay;
    setState('disconnected', reason);
    retryTimer = setTimeout(() => inBackground(log, 'Home Assistant: connecting', () => connect(gen)), delay);
    retryTimer.unref();
  }

  async function connect(gen: number) {
    if (gen !== generation || !target) return;
    retryTimer = null;
    nextRetryAt = null;
    if (!everConnected && retryAttempts === 0) {
      setState('connecting', null);
      record('connecting', `Connecting to Home Assistant`);
    }
    let opened: HaSession;
    try {
      opened = await deps.adapter.connect(target);
    } catch (error) {
      if (gen !== generation) return;
      const err = error as HomeAssistantError;
      if (err.kind === 'auth_invalid') {
        rejectToken();
        return;
      }
      if (retryAttempts === 0)
        log.warn({ reason: err.message }, 'Home Assistant is not reachable; retrying with back-off');
      record('error', err.message);
      scheduleRetry(gen, err.message);
      return;
    }
    if (gen !== generation) {
      opened.close();
      return;
    }
    session = opened;
    opened.onDisconnected(() => gen === generation && lostConnection());
    opened.onReady(() => {
      if (gen === generation)
        inBackground(log, 'Home Assistant: re-reading after reconnecting', () => reconnected(gen));
    });
    opened.onAuthRejected(() => gen === generation && rejectToken());
    try {
      await opened.subscribeStateChanged((event) => gen === generation && onStateChanged(event));
      for (const eventType of [
        'entity_registry_updated',
        'device_registry_updated',
        'area_registry_updated',
      ]) {
        await opened.subscribeEvents(eventType, () => gen === generation && scheduleRegistryReload(gen));
      }
      await loadEverything(opened);
    } catch (error) {
      if (gen !== generation) return;
      opened.close();
      session = null;
      const text = (error as Error).message;
      record('error', `Reading Home Assistant failed: ${text}`);
      scheduleRetry(gen, text);
      return;
    }
    if (gen !== generation) return;
    everConnected = true;
    retryAttempts = 0;
    connectedSince = now();
    record('connected', `Connected to Home Assistant ${haVersion ?? ''} with ${cache.size} entities`.trim());
    log.info({ haVersion, entities: cache.size }, 'connected to Home Assistant');
    setState('connected', null);
    publish({ type: 'resync' });
    startPinging(gen);
  }

  function rejectToken() {
    clearTimers();
    session?.close();
    session = null;
    record('auth_invalid', TOKEN_REJECTED_MESSAGE);
    log.warn('Home Assistant rejected the token; not retrying until the settings change');
    setState(
      'auth_invalid',
      `${TOKEN_REJECTED_MESSAGE}. Create a new long-lived access token in Home Assistant (your profile → Security) and enter it in the connection settings.`,
    );
  }

  function lostConnection() {
    disconnectedAt = lastEventAt && lastEventAt > (connectedSince ?? 0) ? lastEventAt : now();
    if (pingTimer) clearTimeout(pingTimer);
    pingTimer = null;
    connectedSince = null;
    record('disconnected', 'Lost the connection to Home Assistant; reconnecting');
    log.warn('lost the connection to Home Assistant; reconnecting');
    setState('reconnecting', 'Lost the connection to Home Assistant; reconnecting');
  }

  async function reconnected(gen: number) {
    const current = session;
    if (!current) return;
    const gapStart = disconnectedAt ?? now();
    let changed: string[];
    try {
      changed = await loadEverything(current);
    } catch (error) {
      if (gen !== generation) return;
      record('error', `Reading Home Assistant after reconnecting failed: ${(error as Error).message}`);
      current.forceReconnect();
      return;
    }
    if (gen !== generation) return;
    connectedSince = now();
    missedPings = 0;
    record('reconnected', `Reconnected after ${Math.round((now() - gapStart) / 100) / 10} s`);
    log.info('reconnected to Home Assistant');
    setState('connected', null);
    publish({ type: 'resync' });
    startPinging(gen);
    inBackground(log, 'Home Assistant: refilling the history gap', () => refillGap(gen, gapStart, changed));
  }

  /** get_states, get_config and the registries; returns the ids that changed against the cache. */
  async function loadEverything(current: HaSession): Promise<string[]> {
    const [states, config, registries] = await Promise.all([
      current.getStates(),
      current.getConfig(),
      loadRegistries(current),
    ]);
    cache.setRegistries(registries);
    const { changed, removed } = cache.replaceStates(states);
    for (const id of removed) pendingChanged.delete(id);
    cacheChanged({ kind: 'registries' });
    haVersion = current.haVersion || config.version || null;
    locationName = config.location_name ?? null;
    timeZone = config.time_zone ?? null;
    return changed;
  }

  async function loadRegistries(current: HaSession): Promise<RegistrySnapshot> {
    try {
      const [entities, devices, areas] = await Promise.all([
        current.listEntities(),
        current.listDevices(),
        current.listAreas(),
      ]);
      registryProblem = null;
      return { entities, devices, areas };
    } catch (error) {
      // Registry reads need an HA administrator; states still work without them.
      if (error instanceof HomeAssistantError && error.kind === 'rejected') {
        registryProblem = `Home Assistant refused to share its registries (${error.message}); areas, devices and counts are missing. Use a token of an administrator.`;
        return { entities: [], devices: [], areas: [] };
      }
      throw error;
    }
  }

  function scheduleRegistryReload(gen: number) {
    if (registryTimer) return;
    registryTimer = setTimeout(() => {
      registryTimer = null;
      if (gen !== generation || !session) return;
      const current = session;
      inBackground(log, 'Home Assistant: reloading the registries', async () => {
        try {
          cache.setRegistries(await loadRegistries(current));
          cacheChanged({ kind: 'registries' });
          publish({ type: 'resync' });
        } catch (err) {
          log.warn({ err }, 'reloading the Home Assistant registries failed');
        }
      });
    }, t.registryReloadDelayMs);
    registryTimer.unref();
  }

  /**
   * Fills the activity feed with what changed while the socket was down. get_states already made
   * the cache current; history supplies the transitions in between, for the entities that changed.
   */
  async function refillGap(gen: number, since: number, changedIds: string[]) {
    const end = now();
    let transitions = 0;
    const found: HaActivity[] = [];
    try {
      for (let i = 0; i < changedIds.length && target; i += HISTORY_CHUNK) {
        const series = await deps.adapter.history(target, {
          start: new Date(since),
          end: new Date(end),
          entityIds: changedIds.slice(i, i + HISTORY_CHUNK),
          minimal: true,
          noAttributes: true,
        });
        for (const rows of series) {
          const entityId = rows[0]?.entity_id;
          if (!entityId) continue;
          // The first row is the state in effect at the start of the gap.
          for (let r = 1; r < rows.length; r++) {
            transitions++;
            found.push({
              at: rows[r]!.last_changed,
              entity_id: entityId,
              name: cache.view(entityId)?.name ?? entityId,
              from: rows[r - 1]!.state,
              to: rows[r]!.state,
              refilled: true,
            });
          }
        }
      }
    } catch (error) {
      if (gen !== generation) return;
      record('error', `Refilling the gap from history failed: ${(error as Error).message}`);
      return;
    }
    if (gen !== generation) return;
    found.sort((a, b) => a.at.localeCompare(b.at));
    // Changes that arrived live after the reconnect stay after the refilled ones.
    const live = activity.splice(0);
    activity.push(...found, ...live);
    if (activity.length > MAX_ACTIVITY) activity.splice(0, activity.length - MAX_ACTIVITY);
    lastRefill = { at: now(), gapMs: end - since, changedEntities: changedIds.length, transitions };
    record(
      'refill',
      `Refilled ${transitions} state change${transitions === 1 ? '' : 's'} of ${changedIds.length} entit${changedIds.length === 1 ? 'y' : 'ies'} from history`,
    );
  }

  // ---- events and live pushes -----------------------------------------------------------------

  function onStateChanged(event: HaStateChangedEvent) {
    eventsReceived++;
    lastEventAt = now();
    const { entity_id: id, new_state: next, old_state: old } = event.data;
    const outcome = cache.applyStateChanged(id, next);
    if (outcome === 'changed') {
      pendingRemoved.delete(id);
      pendingChanged.add(id);
      if (next && old?.state !== next.state) {
        activity.push({
          at: next.last_changed,
          entity_id: id,
          name: cache.view(id)?.name ?? id,
          from: old?.state ?? null,
          to: next.state,
          refilled: false,
        });
        if (activity.length > MAX_ACTIVITY) activity.shift();
        if (transitionListeners.size) {
          const transition = {
            entityId: id,
            state: next.state,
            at: Date.parse(next.last_changed),
            attributes: next.attributes,
          };
          for (const listener of transitionListeners) listener(transition);
        }
      }
    } else if (outcome === 'removed') {
      pendingChanged.delete(id);
      pendingRemoved.add(id);
    } else return;
    cacheChanged({ kind: 'state', entityId: id });
    if (!flushTimer) {
      flushTimer = setTimeout(flushLive, t.liveFlushMs);
      flushTimer.unref();
    }
  }

  function flushLive() {
    flushTimer = null;
    if (deps.live?.hasSubscribers(HA_ENTITIES_TOPIC)) {
      if (pendingChanged.size) {
        const entities = [];
        for (const id of pendingChanged) {
          const view = cache.view(id);
          if (view) entities.push(view);
        }
        publish({ type: 'changed', entities });
      }
      if (pendingRemoved.size) publish({ type: 'removed', entityIds: [...pendingRemoved] });
    }
    pendingChanged.clear();
    pendingRemoved.clear();
  }

  // ---- health ---------------------------------------------------------------------------------

  function startPinging(gen: number) {
    if (pingTimer) clearTimeout(pingTimer);
    const tick = async () => {
      pingTimer = null;
      if (gen !== generation || state !== 'connected' || !session) return;
      const current = session;
      try {
        const ms = await current.ping(t.pingTimeoutMs);
        pings.push({ at: now(), ms: Math.round(ms * 10) / 10 });
        missedPings = 0;
      } catch {
        if (gen !== generation) return;
        pings.push({ at: now(), ms: null });
        missedPings++;
        record('error', `Home Assistant did not answer a ping within ${t.pingTimeoutMs / 1000} s`);
        if (missedPings >= 2) {
          log.warn('Home Assistant stopped answering pings; reconnecting');
          missedPings = 0;
          current.forceReconnect();
        }
      }
      if (pings.length > MAX_PINGS) pings.shift();
      if (gen !== generation) return;
      announce();
      if (state === 'connected') {
        pingTimer = setTimeout(() => inBackground(log, 'Home Assistant: ping', tick), t.pingIntervalMs);
        pingTimer.unref();
      }
    };
    // The first ping right away, so the dashboard has a response time at once.
    inBackground(log, 'Home Assistant: ping', tick);
  }

  // ---- public ---------------------------------------------------------------------------------

  function start() {
    teardown();
    const config = deps.config.load();
    if (!config) {
      setState(
        'not_configured',
        deps.config.tokenUnreadable
          ? 'The stored token cannot be decrypted (the key in the data directory changed). Enter the token again.'
          : 'Home Assistant is not connected yet. An administrator can connect it under Home Assistant → Connection setup.',
      );
      return;
    }
    target = config;
    inBackground(log, 'Home Assistant: connecting', () => connect(generation));
  }

  /** Reconnects with the stored settings; resolves once the first attempt settled or after `waitMs`. */
  async function restart(waitMs = 8_000): Promise<void> {
    record('config', 'Connection settings changed');
    const settled = new Promise<void>((resolve) => {
      const timer = setTimeout(done, waitMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        settleWaiters.delete(done);
        resolve();
      }
      settleWaiters.add(done);
    });
    start();
    if (state === 'not_configured') return;
    await settled;
  }

  function stop() {
    teardown();
  }

  /** The session to send commands on; 503 with a message that says why there is none. */
  function requireSession(): HaSession {
    if (state === 'connected' && session?.connected) return session;
    throw unavailable();
  }

  /** The stored target for REST calls; refuses fast when the token is known to be bad. */
  function requireTarget(): HaConfig {
    if (target && state !== 'auth_invalid') return target;
    throw unavailable();
  }

  function unavailable(): HomeAssistantError {
    if (state === 'not_configured') {
      return new HomeAssistantError('unreachable', message ?? 'Home Assistant is not connected yet');
    }
    if (state === 'auth_invalid')
      return new HomeAssistantError('auth_invalid', message ?? TOKEN_REJECTED_MESSAGE);
    if (state === 'connecting') {
      return new HomeAssistantError(
        'unreachable',
        'Home Assistant is still connecting; try again in a moment',
      );
    }
    return new HomeAssistantError(
      'unreachable',
      `Home Assistant is not reachable${message ? `: ${message}` : ''}. The hub keeps retrying.`,
    );
  }

  function health(): HaHealthReport {
    const { health: connectionHealth, reason } = currentHealth();
    const counts = cache.counts();
    const last = [...pings].reverse().find((p) => p.ms !== null);
    return {
      status:
        connectionHealth === 'healthy'
          ? 'online'
          : connectionHealth === 'degraded'
            ? 'degraded'
            : connectionHealth === 'not_configured'
              ? 'not_configured'
              : 'offline',
      connectionHealth,
      devicesCount: counts.devices,
      entitiesCount: counts.entities,
      responseTime: state === 'connected' && last?.ms != null ? last.ms : null,
      message: reason,
      checkedAt: last?.at ?? now(),
    };
  }

  function status(): HaStatus {
    const { health: h, reason } = currentHealth();
    const last = [...pings].reverse().find((p) => p.ms !== null);
    return {
      state,
      health: h,
      message: reason,
      haVersion,
      locationName,
      timeZone,
      connectedSince,
      retryAttempts,
      nextRetryAt,
      responseTime: state === 'connected' && last?.ms != null ? last.ms : null,
      pings: [...pings],
      counts: cache.counts(),
      domains: cache.domains(),
      lastRefill,
      eventsReceived,
      events: [...events],
    };
  }

  return {
    start,
    restart,
    stop,
    status,
    health,
    requireSession,
    requireTarget,
    cache,
    /** The open session, also while the first load runs (requireSession waits for 'connected'). */
    currentSession: (): HaSession | null => session,
    /** Told of registry reloads, state changes and connection changes; listeners must be cheap. */
    onChange(listener: (change: HaCacheChange) => void): void {
      changeListeners.add(listener);
    },
    /** Told of every state string change seen live (cheap listeners: they run per event). */
    onStateTransition(listener: (transition: HaStateTransition) => void): () => void {
      transitionListeners.add(listener);
      return () => transitionListeners.delete(listener);
    },
    /** Why the connection is not up (or null), as the status shows it. */
    get message() {
      return message;
    },
    /** Set when HA refused the registry reads (a non-admin token): devices and areas are missing. */
    get registryProblem() {
      return registryProblem;
    },
    /** Recent state changes, newest first. */
    activity: (): HaActivity[] => [...activity].reverse(),
    get state() {
      return state;
    },
  };
}

export type HaConnection = ReturnType<typeof createHaConnection>;
