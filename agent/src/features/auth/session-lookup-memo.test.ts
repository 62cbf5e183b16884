import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { users } from './auth.table.js';
import { IDLE_TIMEOUT_MS, createSessionService } from './session.service.js';

/**
 * validate() remembers recent lookups only while the database is unchanged; these check that no
 * write, from this connection or another one (the CLI), is ever answered from memory.
 */
let handle: DbHandle;
let dir: string;
let t: number;
const now = () => t;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-session-memo-'));
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

describe('session lookups between writes', () => {
  it('see a role change made through this connection at once', () => {
    const sessions = createSessionService(handle.db, now);
    const { token } = sessions.create(1, { persistent: false });
    expect(sessions.validate(token)?.role).toBe('user');
    handle.sqlite.prepare("update users set role = 'admin' where id = 1").run();
    expect(sessions.validate(token)?.role).toBe('admin');
  });

  it('see a sign-out made by another connection (the CLI) at once', () => {
    const sessions = createSessionService(handle.db, now);
    const { token } = sessions.create(1, { persistent: false });
    expect(sessions.validate(token)).not.toBeNull();
    const other = openDatabase(dir);
    try {
      other.sqlite.prepare('delete from sessions').run();
    } finally {
      other.close();
    }
    expect(sessions.validate(token)).toBeNull();
  });

  it('still expire and slide the idle timeout while nothing else is written', () => {
    const sessions = createSessionService(handle.db, now);
    const { token } = sessions.create(1, { persistent: false });
    expect(sessions.validate(token)).not.toBeNull();
    t += IDLE_TIMEOUT_MS - 1000;
    // Past the touch interval: this lookup writes the new expiry.
    expect(sessions.validate(token)).not.toBeNull();
    t += IDLE_TIMEOUT_MS - 1000;
    expect(sessions.validate(token)).not.toBeNull();
    t += IDLE_TIMEOUT_MS + 1;
    expect(sessions.validate(token)).toBeNull();
  });
  it('refuse a signed-out session and a disabled account at once', () => {
    const sessions = createSessionService(handle.db, now);
    const first = sessions.create(1, { persistent: false });
    const second = sessions.create(1, { persistent: true });
    expect(sessions.validate(first.token)).not.toBeNull();
    expect(sessions.validate(second.token)).not.toBeNull();
    sessions.revoke(first.token);
    expect(sessions.validate(first.token)).toBeNull();
    // Another service disabling the account writes through the same connection.
    handle.sqlite.prepare('update users set disabled_at = 1 where id = 1').run();
    expect(sessions.validate(second.token)).toBeNull();
  });

  it('hand every lookup the same answer, which no request can change for the next', () => {
    const sessions = createSessionService(handle.db, now);
    const { token } = sessions.create(1, { persistent: false });
    const first = sessions.validate(token)!;
    expect(sessions.validate(token)).toBe(first);
    expect(() => {
      (first as { role: string }).role = 'admin';
    }).toThrow(TypeError);
    expect(() => {
      (first.session as { kind: string }).kind = 'phone';
    }).toThrow(TypeError);
    expect(sessions.validate(token)?.role).toBe('user');
  });
});
