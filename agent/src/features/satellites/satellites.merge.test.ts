import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_SATELLITE_CONTROLS, type SatelliteControlInput } from '../../contract/satellites.js';
import { openDatabase, type DbHandle } from '../../db/client.js';
import type { HttpError } from '../../lib/http-error.js';
import { createSatellitesRepository } from './satellites.repository.js';
import { createSatellitesService } from './satellites.service.js';
import type { HaSatelliteSource, SatelliteLiveView, WyomingSatelliteManager } from './sources.js';
import type { SatelliteRow } from './satellites.table.js';

let handle: DbHandle;
let dir: string;
let t: number;
const now = () => t;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-satellites-'));
  handle = openDatabase(dir);
  t = Date.UTC(2026, 10, 25, 12);
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function view(name: string, extra: Partial<SatelliteLiveView> = {}): SatelliteLiveView {
  return {
    name,
    status: 'online',
    statusReason: null,
    signalStrength: null,
    activeWakeWord: null,
    lastSeen: null,
    room: null,
    ipAddress: null,
    firmwareVersion: null,
    model: null,
    manufacturer: null,
    controls: NO_SATELLITE_CONTROLS,
    homeAssistant: null,
    wyoming: null,
    ...extra,
  };
}

function fakeHa(devices: Array<{ deviceId: string; view: SatelliteLiveView }>) {
  const listeners: Array<() => void> = [];
  const control = vi.fn<(deviceId: string, input: SatelliteControlInput) => Promise<void>>(async () => {});
  const source: HaSatelliteSource = {
    availability: () => ({ available: true, message: null }),
    list: () => devices,
    control,
    onChange: (l) => listeners.push(l),
  };
  return { source, control, devices, fire: () => listeners.forEach((l) => l()) };
}

function fakeWyoming() {
  const synced: number[][] = [];
  const control = vi.fn<(row: SatelliteRow, input: SatelliteControlInput) => Promise<void>>(async () => {});
  const manager: WyomingSatelliteManager = {
    sync: (rows) => synced.push(rows.map((r) => r.id)),
    view: (row) => view(row.name, { status: 'offline', statusReason: 'Connecting' }),
    control,
    onChange: () => {},
    stop: () => {},
  };
  return { manager, synced, control };
}

describe('the merged satellite list', () => {
  it('gives every source one id space, keeps a Home Assistant device on its id across restarts, and sorts by name', () => {
    const ha = fakeHa([{ deviceId: 'dev_a', view: view('Office Satellite', { signalStrength: -67 }) }]);
    const wy = fakeWyoming();
    const repo = createSatellitesRepository(handle.db, now);
    const service = createSatellitesService({
      repository: repo,
      homeAssistant: ha.source,
      wyoming: wy.manager,
      now,
    });
    service.create({ name: 'Custom Box' });
    const pi = service.createWyoming({ host: '127.0.0.1', port: 10700 });
    const list = service.list();
    expect(list.map((s) => [s.name, s.source])).toEqual([
      ['127.0.0.1', 'wyoming'],
      ['Custom Box', 'nexus'],
      ['Office Satellite', 'home-assistant'],
    ]);
    expect(new Set(list.map((s) => s.id)).size).toBe(3);
    expect(wy.synced.at(-1)).toEqual([pi.id]);

    const haId = list.find((s) => s.source === 'home-assistant')!.id;
    const again = createSatellitesService({ repository: repo, homeAssistant: ha.source, now });
    expect(again.list().find((s) => s.source === 'home-assistant')!.id).toBe(haId);
  });

  it('refuses to rename, delete or re-token what it does not own, and routes controls to the owning source', async () => {
    const ha = fakeHa([{ deviceId: 'dev_a', view: view('Office Satellite') }]);
    const wy = fakeWyoming();
    const service = createSatellitesService({
      repository: createSatellitesRepository(handle.db, now),
      homeAssistant: ha.source,
      wyoming: wy.manager,
      now,
    });
    const haId = service.list()[0]!.id;
    const custom = service.create({ name: 'Custom Box' }).satellite;
    const pi = service.createWyoming({ name: 'Kitchen Pi', host: 'kitchen-pi.local' });
    expect(pi.name).toBe('Kitchen Pi');

    const status = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as HttpError).status;
      }
      return 200;
    };
    expect(status(() => service.update(haId, { name: 'x' }))).toBe(409);
    expect(status(() => service.remove(haId))).toBe(409);
    expect(status(() => service.rotateToken(pi.id))).toBe(409);
    expect(status(() => service.createWyoming({ host: 'kitchen-pi.local', port: 10700 }))).toBe(409);
    expect(status(() => service.get(9999))).toBe(404);

    await service.control(haId, { action: 'volume', value: 40 });
    expect(ha.control).toHaveBeenCalledWith('dev_a', { action: 'volume', value: 40 });
    await service.control(pi.id, { action: 'mute', value: true });
    expect(wy.control.mock.calls[0]?.[0].id).toBe(pi.id);
    await expect(service.control(custom.id, { action: 'restart' })).rejects.toMatchObject({ status: 409 });

    // A Home Assistant device that left HA is a 404, not a stale entry.
    ha.devices.length = 0;
    expect(status(() => service.get(haId))).toBe(404);
    await expect(service.control(haId, { action: 'volume', value: 1 })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('keeps 24 h of signal: each change, a repeat every few minutes, nothing older', () => {
    const service = createSatellitesService({ repository: createSatellitesRepository(handle.db, now), now });
    const { satellite } = service.create({ name: 'Custom Box' });
    const row = () => createSatellitesRepository(handle.db, now).get(satellite.id)!;
    for (const [minutes, dbm] of [
      [0, -50],
      [1, -50],
      [2, -61],
      [10, -61],
    ] as const) {
      t = Date.UTC(2026, 10, 25, 12) + minutes * 60_000;
      service.heartbeat(row(), { signalStrength: dbm }, null);
    }
    expect(service.signalHistory(satellite.id).points.map((p) => p.dbm)).toEqual([-50, -61, -61]);
    t += 25 * 60 * 60 * 1000;
    expect(service.signalHistory(satellite.id).points).toEqual([]);
  });
});

describe('migration 0010', () => {
  it('keeps the satellites made before it, as Nexus-API satellites with their tokens', () => {
    // Build a database at migration 0009 by hand-applying the files before 0010, add a satellite the old way, then open it.
    const migrations = path.join(path.dirname(new URL(import.meta.url).pathname), '../../../drizzle');
    const legacyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-satellites-legacy-'));
    try {
      const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as {
        entries: Array<{ idx: number; tag: string; when: number }>;
      };
      const old = journal.entries.filter((e) => e.idx < 10);
      const sqlite = new Database(path.join(legacyDir, 'nexus.db'));
      sqlite.exec(
        'CREATE TABLE "__drizzle_migrations" (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)',
      );
      for (const entry of old) {
        const sql = fs.readFileSync(path.join(migrations, `${entry.tag}.sql`), 'utf8');
        for (const statement of sql.split('--> statement-breakpoint'))
          if (statement.trim()) sqlite.exec(statement);
        sqlite
          .prepare('INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)')
          .run('x', entry.when);
      }
      sqlite
        .prepare(
          'INSERT INTO satellites (name, room, token_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run('Old Box', 'Hall', 'a'.repeat(64), 1, 1);
      sqlite.close();

      const migrated = openDatabase(legacyDir);
      try {
        const [row] = createSatellitesRepository(migrated.db).list();
        expect(row).toMatchObject({
          name: 'Old Box',
          room: 'Hall',
          source: 'nexus',
          tokenHash: 'a'.repeat(64),
        });
      } finally {
        migrated.close();
      }
    } finally {
      fs.rmSync(legacyDir, { recursive: true, force: true });
    }
  });
});
