import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { users } from './auth.table.js';
import { IDLE_TIMEOUT_MS, REMEMBER_ME_MS, createSessionService } from './session.service.js';

let handle: DbHandle;
let dir: string;
let t: number;
const now = () => t;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-sessions-'));
  handle = openDatabase(dir);
  t = Date.UTC(2026, 0, 1);
  handle.db
    .insert(users)
    .values({ name: 'Ann', email: 'ann@example.com', emailNormalized: 'ann@example.com', passwordHash: 'x' })
    .run();
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sessions', () => {
  it('issue 256-bit random ids and store only their hash', () => {
    const sessions = createSessionService(handle.db, now);
    const a = sessions.create(1, { persistent: false });
    const b = sessions.create(1, { persistent: false });
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
    const stored = handle.sqlite.prepare('select id_hash from sessions').pluck().all() as string[];
    expect(stored).toHaveLength(2);
    expect(stored).not.toContain(a.token);
    expect(sessions.validate(a.token)?.email).toBe('ann@example.com');
    expect(sessions.validate('not-a-session')).toBeNull();
  });

  it('keep a rememberMe session 30 days, without sliding', () => {
    const sessions = createSessionService(handle.db, now);
    const { token, expiresAt } = sessions.create(1, { persistent: true });
    expect(expiresAt.getTime() - t).toBe(REMEMBER_ME_MS);
    expect(REMEMBER_ME_MS).toBe(30 * 24 * 3600 * 1000);
    t += REMEMBER_ME_MS - 1000;
    expect(sessions.validate(token)).not.toBeNull();
    t += 1000;
    expect(sessions.validate(token)).toBeNull();
  });

  it('end a browser-session sign-in after the idle timeout, and slide it while in use', () => {
    const sessions = createSessionService(handle.db, now);
    const { token } = sessions.create(1, { persistent: false });
    for (let i = 0; i < 5; i++) {
      t += IDLE_TIMEOUT_MS - 60_000;
      expect(sessions.validate(token)).not.toBeNull();
    }
    t += IDLE_TIMEOUT_MS;
    expect(sessions.validate(token)).toBeNull();
  });

  it('revoke one, all but one, or all of a user’s sessions, and purge expired ones', () => {
    const sessions = createSessionService(handle.db, now);
    const a = sessions.create(1, { persistent: false });
    const b = sessions.create(1, { persistent: true });
    const c = sessions.create(1, { persistent: true });
    sessions.revoke(a.token);
    expect(sessions.validate(a.token)).toBeNull();
    sessions.revokeOthers(1, b.token);
    expect(sessions.validate(b.token)).not.toBeNull();
    expect(sessions.validate(c.token)).toBeNull();
    sessions.revokeAllForUser(1);
    expect(sessions.countForUser(1)).toBe(0);

    sessions.create(1, { persistent: false });
    sessions.create(1, { persistent: true });
    t += IDLE_TIMEOUT_MS + 1;
    expect(sessions.purgeExpired()).toBe(1);
    expect(sessions.countForUser(1)).toBe(1);
  });
});
