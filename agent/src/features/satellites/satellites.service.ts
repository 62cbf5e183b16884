import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  NO_SATELLITE_CONTROLS,
  SATELLITE_OFFLINE_AFTER_MS,
  SATELLITE_SIGNAL_WINDOW_MS,
  satelliteHeartbeatInputSchema,
  type CreateSatelliteInput,
  type CreateWyomingSatelliteInput,
  type Satellite,
  type SatelliteControlInput,
  type SatelliteHeartbeatInput,
  type SatelliteSignalHistory,
  type SatelliteSourceStatus,
  type SatelliteWithToken,
  type UpdateSatelliteInput,
} from '../../contract/satellites.js';
import { createWyomingSatelliteInputSchema } from '../../contract/satellites.js';
import { HttpError, notFound, unauthorized } from '../../lib/http-error.js';
import type { AuditRecorder } from '../audit/index.js';
import type { SatelliteRow } from './satellites.table.js';
import type { SatellitesRepository } from './satellites.repository.js';
import type { HaSatelliteSource, SatelliteLiveView, WyomingSatelliteManager } from './sources.js';

const TOKEN_PREFIX = 'nxsat_';
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Signal readings are kept a week (the chart shows a day); a reading is stored at most this often per satellite unless it changes. */
const SIGNAL_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const SIGNAL_REPEAT_MS = 5 * 60 * 1000;
/** Changes from the sources are pushed to browsers at most this often. */
const PUBLISH_DELAY_MS = 100;

const conflict = (message: string) => new HttpError(409, message);

/** online/degraded while heartbeats arrive, offline once the last is older than SATELLITE_OFFLINE_AFTER_MS. */
export function satelliteStatus(row: Pick<SatelliteRow, 'lastSeenAt' | 'reportedStatus'>, at: number) {
  if (!row.lastSeenAt || at - row.lastSeenAt.getTime() > SATELLITE_OFFLINE_AFTER_MS) return 'offline';
  return row.reportedStatus ?? 'online';
}

/** A Nexus-API satellite: everything it knows came from its own heartbeats. */
export function nexusView(row: SatelliteRow, at: number): SatelliteLiveView {
  const status = satelliteStatus(row, at);
  return {
    name: row.name,
    status,
    statusReason:
      status === 'online'
        ? null
        : status === 'degraded'
          ? 'The satellite reports a problem in its heartbeat'
          : row.lastSeenAt
            ? `No heartbeat for more than ${SATELLITE_OFFLINE_AFTER_MS / 1000} s`
            : 'No heartbeat yet: set the token on the device',
    signalStrength: row.signalStrength,
    activeWakeWord: row.activeWakeWord,
    lastSeen: row.lastSeenAt?.toISOString() ?? null,
    room: row.room,
    ipAddress: row.ipAddress,
    firmwareVersion: row.firmwareVersion,
    model: row.model,
    manufacturer: row.manufacturer,
    controls: NO_SATELLITE_CONTROLS,
    homeAssistant: null,
    wyoming: null,
  };
}

function withIdentity(row: SatelliteRow, view: SatelliteLiveView): Satellite {
  return { ...view, id: row.id, source: row.source, createdAt: row.createdAt.toISOString() };
}

/**
 * The one list of satellites, merged from Home Assistant, the Wyoming connections and the
 * Nexus-API devices, each with the hub's numeric id; and the actions on them, sent to the source
 * that owns the device.
 */
export function createSatellitesService(deps: {
  repository: SatellitesRepository;
  /** The security event log: device tokens issued (who and where come from the request). */
  audit?: AuditRecorder;
  homeAssistant?: HaSatelliteSource;
  wyoming?: WyomingSatelliteManager;
  now?: () => number;
  /** Told after every change, e.g. to push the list to browsers. */
  onChange?: (list: Satellite[]) => void;
}) {
  const now = deps.now ?? Date.now;
  const repo = deps.repository;
  /** HA device id → its row, so a list does not touch the database for devices already known. */
  const haRows = new Map<string, SatelliteRow>();
  /** The last signal stored per satellite id, to store changes (and a reading every few minutes). */
  const lastSignal = new Map<number, { at: number; dbm: number }>();
  let lastPrune = 0;
  let publishTimer: NodeJS.Timeout | null = null;

  for (const row of repo.list('home-assistant')) if (row.externalId) haRows.set(row.externalId, row);

  function haRow(deviceId: string, view: SatelliteLiveView): SatelliteRow {
    let row = haRows.get(deviceId);
    if (!row) {
      row = repo.create({
        source: 'home-assistant',
        externalId: deviceId,
        name: view.name,
        model: view.model,
        manufacturer: view.manufacturer,
      });
      haRows.set(deviceId, row);
    }
    return row;
  }

  function recordSignal(id: number, dbm: number | null, at: number) {
    if (dbm === null) return;
    const rounded = Math.round(dbm);
    const last = lastSignal.get(id);
    if (last && last.dbm === rounded && at - last.at < SIGNAL_REPEAT_MS) return;
    lastSignal.set(id, { at, dbm: rounded });
    repo.addSignalSample(id, at, rounded);
    if (at - lastPrune > 60 * 60 * 1000) {
      lastPrune = at;
      repo.pruneSignalSamples(at - SIGNAL_KEEP_MS);
    }
  }

  function haSatellites(): Satellite[] {
    if (!deps.homeAssistant) return [];
    return deps.homeAssistant.list().map(({ deviceId, view }) => withIdentity(haRow(deviceId, view), view));
  }

  function list(): Satellite[] {
    const at = now();
    const items: Satellite[] = haSatellites();
    for (const row of repo.list()) {
      if (row.source === 'nexus') items.push(withIdentity(row, nexusView(row, at)));
      else if (row.source === 'wyoming' && deps.wyoming)
        items.push(withIdentity(row, deps.wyoming.view(row)));
    }
    return items.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  }

  function publishSoon() {
    if (publishTimer || !deps.onChange) return;
    publishTimer = setTimeout(() => {
      publishTimer = null;
      const items = list();
      const at = now();
      for (const s of items) if (s.source === 'home-assistant') recordSignal(s.id, s.signalStrength, at);
      deps.onChange?.(items);
    }, PUBLISH_DELAY_MS);
    publishTimer.unref();
  }
  const changed = () => deps.onChange?.(list());

  deps.homeAssistant?.onChange(publishSoon);
  deps.wyoming?.onChange(publishSoon);
  deps.wyoming?.sync(repo.list('wyoming'));

  function rowOf(id: number): SatelliteRow {
    const row = repo.get(id);
    if (!row) throw notFound('No such satellite');
    return row;
  }

  function one(row: SatelliteRow): Satellite {
    if (row.source === 'nexus') return withIdentity(row, nexusView(row, now()));
    if (row.source === 'wyoming') {
      if (!deps.wyoming) throw notFound('No such satellite');
      return withIdentity(row, deps.wyoming.view(row));
    }
    const found = deps.homeAssistant?.list().find((s) => s.deviceId === row.externalId);
    if (!found) {
      throw notFound(
        deps.homeAssistant?.availability().available === false
          ? `Satellite ${row.name} comes from Home Assistant, which is not connected`
          : `Satellite ${row.name} is no longer in Home Assistant`,
      );
    }
    return withIdentity(row, found.view);
  }

  const newToken = () => {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return { token, tokenHash: hashToken(token) };
  };

  function nexusRow(id: number, what: string): SatelliteRow {
    const row = rowOf(id);
    if (row.source !== 'nexus')
      throw conflict(`${what} is only for Nexus-API satellites; ${row.name} is not one`);
    return row;
  }

  return {
    list,

    get(id: number): Satellite {
      return one(rowOf(id));
    },

    sources(): SatelliteSourceStatus[] {
      const items = list();
      const count = (source: Satellite['source']) => items.filter((s) => s.source === source).length;
      const ha = deps.homeAssistant?.availability() ?? {
        available: false,
        message: 'Home Assistant satellites are not read on this hub',
      };
      return [
        { source: 'home-assistant', ...ha, count: count('home-assistant') },
        {
          source: 'wyoming',
          available: Boolean(deps.wyoming),
          message: deps.wyoming ? null : 'Wyoming satellites are not connected on this hub',
          count: count('wyoming'),
        },
        { source: 'nexus', available: true, message: null, count: count('nexus') },
      ];
    },

    create(input: CreateSatelliteInput): SatelliteWithToken {
      const { token, tokenHash } = newToken();
      const row = repo.create({
        source: 'nexus',
        name: input.name,
        room: input.room ?? null,
        activeWakeWord: input.activeWakeWord ?? null,
        tokenHash,
      });
      changed();
      deps.audit?.record({
        type: 'satellite_token_created',
        target: row.name,
        details: { satelliteId: row.id, reason: 'created' },
      });
      return { satellite: one(row), token };
    },

    createWyoming(input: CreateWyomingSatelliteInput): Satellite {
      if (!deps.wyoming) throw new HttpError(503, 'Wyoming satellites are not connected on this hub');
      const parsed = createWyomingSatelliteInputSchema.parse(input);
      const existing = repo.byAddress(parsed.host, parsed.port);
      if (existing) throw conflict(`${parsed.host}:${parsed.port} is already added as ${existing.name}`);
      const row = repo.create({
        source: 'wyoming',
        name: parsed.name ?? parsed.host,
        host: parsed.host,
        port: parsed.port,
      });
      deps.wyoming.sync(repo.list('wyoming'));
      changed();
      return one(row);
    },

    update(id: number, input: UpdateSatelliteInput): Satellite {
      const existing = rowOf(id);
      if (existing.source === 'home-assistant') {
        throw conflict(`${existing.name} comes from Home Assistant: rename it or change its area there`);
      }
      const row = repo.update(id, input);
      if (!row) throw notFound('No such satellite');
      changed();
      return one(row);
    },

    remove(id: number): void {
      const existing = rowOf(id);
      if (existing.source === 'home-assistant') {
        throw conflict(`${existing.name} comes from Home Assistant: remove the device there`);
      }
      repo.delete(id);
      lastSignal.delete(id);
      if (existing.source === 'wyoming') deps.wyoming?.sync(repo.list('wyoming'));
      changed();
    },

    /** A new token; the old one stops working at once. */
    rotateToken(id: number): SatelliteWithToken {
      nexusRow(id, 'A token');
      const { token, tokenHash } = newToken();
      const row = repo.update(id, { tokenHash });
      if (!row) throw notFound('No such satellite');
      deps.audit?.record({
        type: 'satellite_token_created',
        target: row.name,
        details: { satelliteId: row.id, reason: 'rotated' },
      });
      return { satellite: one(row), token };
    },

    /** Resolves a bearer token to its satellite; 401 for a wrong id/token pair without saying which is wrong. */
    authenticate(id: number, token: string | undefined): SatelliteRow {
      const row = repo.get(id);
      const presented = Buffer.from(hashToken(token ?? ''), 'hex');
      const stored = Buffer.from(row?.tokenHash ?? hashToken(`${TOKEN_PREFIX}none`), 'hex');
      if (!row || !row.tokenHash || !token || !timingSafeEqual(presented, stored)) {
        throw unauthorized('Invalid satellite token');
      }
      return row;
    },

    heartbeat(row: SatelliteRow, input: SatelliteHeartbeatInput, ipAddress: string | null): Satellite {
      const beat = satelliteHeartbeatInputSchema.parse(input);
      const at = now();
      const signal =
        beat.signalStrength !== undefined
          ? { signalStrength: beat.signalStrength === null ? null : Math.round(beat.signalStrength) }
          : {};
      const updated = repo.update(row.id, {
        reportedStatus: beat.status,
        lastSeenAt: new Date(at),
        ipAddress,
        ...signal,
        ...(beat.activeWakeWord !== undefined ? { activeWakeWord: beat.activeWakeWord } : {}),
        ...(beat.firmwareVersion !== undefined ? { firmwareVersion: beat.firmwareVersion } : {}),
      });
      if (!updated) throw notFound('No such satellite');
      recordSignal(updated.id, updated.signalStrength, at);
      changed();
      return one(updated);
    },

    /** Sends the action to the device through its source; 409 when the device lacks it. */
    async control(id: number, input: SatelliteControlInput): Promise<Satellite> {
      const row = rowOf(id);
      if (row.source === 'home-assistant') {
        if (!deps.homeAssistant || !row.externalId) throw notFound('No such satellite');
        one(row); // 404 when HA no longer has it
        await deps.homeAssistant.control(row.externalId, input);
      } else if (row.source === 'wyoming') {
        if (!deps.wyoming) throw notFound('No such satellite');
        await deps.wyoming.control(row, input);
      } else {
        throw conflict(
          `${row.name} uses the Nexus satellite API, which takes no commands from the hub; change it on the device`,
        );
      }
      return one(rowOf(id));
    },

    signalHistory(id: number): SatelliteSignalHistory {
      rowOf(id);
      const to = now();
      const from = to - SATELLITE_SIGNAL_WINDOW_MS;
      return { points: repo.signalSamples(id, from), from, to };
    },

    stop(): void {
      if (publishTimer) clearTimeout(publishTimer);
      publishTimer = null;
      deps.wyoming?.stop();
    },
  };
}

export type SatellitesService = ReturnType<typeof createSatellitesService>;
