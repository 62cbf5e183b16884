import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  CreateSatelliteInput,
  Satellite,
  SatelliteHeartbeatInput,
  SatelliteWithToken,
  UpdateSatelliteInput,
} from '../../contract/status.js';
import { SATELLITE_OFFLINE_AFTER_MS, satelliteHeartbeatInputSchema } from '../../contract/status.js';
import { notFound, unauthorized } from '../../lib/http-error.js';
import type { SatelliteRow } from './satellites.table.js';
import type { SatellitesRepository } from './satellites.repository.js';

const TOKEN_PREFIX = 'nxsat_';
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** online/degraded while heartbeats arrive, offline once the last is older than SATELLITE_OFFLINE_AFTER_MS. */
export function satelliteStatus(row: Pick<SatelliteRow, 'lastSeenAt' | 'reportedStatus'>, at: number) {
  if (!row.lastSeenAt || at - row.lastSeenAt.getTime() > SATELLITE_OFFLINE_AFTER_MS) return 'offline';
  return row.reportedStatus ?? 'online';
}

export function toSatellite(row: SatelliteRow, at: number): Satellite {
  return {
    id: row.id,
    name: row.name,
    status: satelliteStatus(row, at),
    signalStrength: row.signalStrength,
    activeWakeWord: row.activeWakeWord,
    lastSeen: row.lastSeenAt?.toISOString() ?? null,
    room: row.room,
    ipAddress: row.ipAddress,
    firmwareVersion: row.firmwareVersion,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createSatellitesService(deps: {
  repository: SatellitesRepository;
  now?: () => number;
  /** Told after every change, e.g. to push the list to browsers. */
  onChange?: (list: Satellite[]) => void;
}) {
  const now = deps.now ?? Date.now;
  const repo = deps.repository;

  const list = () => {
    const at = now();
    return repo.list().map((r) => toSatellite(r, at));
  };
  const changed = () => deps.onChange?.(list());

  const newToken = () => {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return { token, tokenHash: hashToken(token) };
  };

  return {
    list,

    get(id: number): Satellite {
      const row = repo.get(id);
      if (!row) throw notFound('No such satellite');
      return toSatellite(row, now());
    },

    create(input: CreateSatelliteInput): SatelliteWithToken {
      const { token, tokenHash } = newToken();
      const row = repo.create({
        name: input.name,
        room: input.room ?? null,
        activeWakeWord: input.activeWakeWord ?? null,
        tokenHash,
      });
      changed();
      return { satellite: toSatellite(row, now()), token };
    },

    update(id: number, input: UpdateSatelliteInput): Satellite {
      const row = repo.update(id, input);
      if (!row) throw notFound('No such satellite');
      changed();
      return toSatellite(row, now());
    },

    remove(id: number): void {
      if (!repo.delete(id)) throw notFound('No such satellite');
      changed();
    },

    /** A new token; the old one stops working at once. */
    rotateToken(id: number): SatelliteWithToken {
      const { token, tokenHash } = newToken();
      const row = repo.update(id, { tokenHash });
      if (!row) throw notFound('No such satellite');
      return { satellite: toSatellite(row, now()), token };
    },

    /** Resolves a bearer token to its satellite; 401 for a wrong id/token pair without saying which is wrong. */
    authenticate(id: number, token: string | undefined): SatelliteRow {
      const row = repo.get(id);
      const presented = Buffer.from(hashToken(token ?? ''), 'hex');
      const stored = Buffer.from(row?.tokenHash ?? hashToken(`${TOKEN_PREFIX}none`), 'hex');
      if (!row || !token || !timingSafeEqual(presented, stored)) {
        throw unauthorized('Invalid satellite token');
      }
      return row;
    },

    heartbeat(row: SatelliteRow, input: SatelliteHeartbeatInput, ipAddress: string | null): Satellite {
      const beat = satelliteHeartbeatInputSchema.parse(input);
      const updated = repo.update(row.id, {
        reportedStatus: beat.status,
        lastSeenAt: new Date(now()),
        ipAddress,
        ...(beat.signalStrength !== undefined
          ? { signalStrength: beat.signalStrength === null ? null : Math.round(beat.signalStrength) }
          : {}),
        ...(beat.activeWakeWord !== undefined ? { activeWakeWord: beat.activeWakeWord } : {}),
        ...(beat.firmwareVersion !== undefined ? { firmwareVersion: beat.firmwareVersion } : {}),
      });
      if (!updated) throw notFound('No such satellite');
      changed();
      return toSatellite(updated, now());
    },
  };
}

export type SatellitesService = ReturnType<typeof createSatellitesService>;
