import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { KEY_FILE, createSecretBox, keyId, loadSecretKey, type SecretBox } from '../lib/secret-box.js';
import { HA_SETTINGS_KEY } from '../features/home-assistant/ha-config.js';
import { settings } from '../features/settings/settings.table.js';
import type { DbHandle } from './client.js';

/** The settings key under which the database records the id of the key that seals its secrets. */
export const KEY_ID_SETTING = 'secret-box.key-id';

/** The SecretBox for this data directory, checked against the key id the database recorded. */
export function openSecretBox(dataDir: string, handle: DbHandle): SecretBox {
  const { db } = handle;
  return createSecretBox(
    loadSecretKey(dataDir, {
      get: () => {
        const row = db.select().from(settings).where(eq(settings.key, KEY_ID_SETTING)).get();
        return row ? (JSON.parse(row.value) as string) : undefined;
      },
      set: (id) => {
        const value = JSON.stringify(id);
        db.insert(settings)
          .values({ key: KEY_ID_SETTING, value, updatedAt: new Date() })
          .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } })
          .run();
      },
      holdsSealedSecrets: () => holdsSealedSecrets(handle),
    }),
  );
}

/** Every column that holds a sealed value is named `*_sealed`; the Home Assistant token is a setting. */
function sealedColumns(sqlite: DbHandle['sqlite']): { table: string; column: string; notnull: boolean }[] {
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  return tables.flatMap((table) =>
    (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; notnull: number }[])
      .filter((c) => c.name.endsWith('_sealed'))
      .map((c) => ({ table, column: c.name, notnull: c.notnull === 1 })),
  );
}

function holdsSealedSecrets({ db, sqlite }: DbHandle): boolean {
  const sealed = sealedColumns(sqlite).some(
    ({ table, column }) =>
      sqlite.prepare(`SELECT 1 FROM "${table}" WHERE "${column}" IS NOT NULL LIMIT 1`).get() !== undefined,
  );
  return sealed || db.select().from(settings).where(eq(settings.key, HA_SETTINGS_KEY)).get() !== undefined;
}

/**
 * What `npm run cli -- secrets:reset` does when secret.key is lost for good: every sealed value is
 * forgotten (each column named `*_sealed`, and the Home Assistant connection setting), a new key is
 * made, and the owner enters tokens and keys again. Returns one line per kind of secret forgotten.
 */
export function resetSecrets(dataDir: string, handle: DbHandle, now = Date.now()): string[] {
  const key = randomBytes(32);
  const box = createSecretBox(key);
  const { sqlite } = handle;
  const done: string[] = [];
  const count = (n: number, what: string) => {
    if (n > 0) done.push(`${what}: ${n}`);
  };
  /** Sealed columns that cannot simply become NULL. */
  const special: Record<string, () => void> = {
    'users.totp_secret_sealed': () =>
      count(
        sqlite
          .prepare(
            'UPDATE users SET totp_secret_sealed = NULL, totp_enabled = 0, totp_last_step = NULL WHERE totp_secret_sealed IS NOT NULL',
          )
          .run().changes,
        'two-factor authentication turned off (set it up again in Account Settings)',
      ),
    // A webhook needs a secret: a new one, so each webhook URL changes.
    'flows.webhook_secret_sealed': () => {
      const rows = sqlite.prepare('SELECT id FROM flows').all() as { id: number }[];
      const update = sqlite.prepare('UPDATE flows SET webhook_secret_sealed = ? WHERE id = ?');
      for (const { id } of rows) update.run(box.seal(randomBytes(24).toString('base64url')), id);
      count(rows.length, 'flow webhook URLs changed (copy the new ones from each flow)');
    },
    'docker_stacks.variables_sealed': () =>
      count(
        sqlite.prepare('UPDATE docker_stacks SET variables_sealed = ?').run(box.seal('{}')).changes,
        'deployed stacks whose settings must be entered again before a redeploy',
      ),
    // A peer hub without its token is of no use: it is added again with one.
    'remote_hubs.token_sealed': () =>
      count(sqlite.prepare('DELETE FROM remote_hubs').run().changes, 'other hubs removed (add them again)'),
    // WireGuard (issue 17): without its keys the server, its peers and the uplinks are set up again.
    'wg_server.private_key_sealed': () =>
      count(
        sqlite.prepare('DELETE FROM wg_server').run().changes,
        'the WireGuard server removed (set it up again)',
      ),
    'wg_peers.preshared_key_sealed': () =>
      count(
        sqlite.prepare('DELETE FROM wg_peers').run().changes,
        'WireGuard peers removed (add the devices again)',
      ),
    'vpn_uplinks.config_sealed': () =>
      count(
        sqlite.prepare('DELETE FROM vpn_uplinks').run().changes,
        'VPN uplink configs removed (paste them again)',
      ),
  };
  sqlite.transaction(() => {
    for (const { table, column, notnull } of sealedColumns(sqlite)) {
      const name = `${table}.${column}`;
      const reset = special[name];
      if (reset) reset();
      else if (!notnull)
        count(
          sqlite.prepare(`UPDATE "${table}" SET "${column}" = NULL WHERE "${column}" IS NOT NULL`).run()
            .changes,
          `${name} forgotten`,
        );
      else throw new Error(`secrets:reset does not know how to reset ${name}; nothing was changed`);
    }
    count(
      sqlite.prepare('DELETE FROM settings WHERE key = ?').run(HA_SETTINGS_KEY).changes,
      'Home Assistant connection forgotten (enter its URL and token again)',
    );
    const value = JSON.stringify(keyId(key));
    sqlite
      .prepare(
        'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      )
      .run(KEY_ID_SETTING, value, now);
    // The key file goes in place while the transaction can still roll back: a key written after a
    // failed commit would not match the database, one written before a failed commit is moved aside.
    const file = path.join(dataDir, KEY_FILE);
    if (fs.existsSync(file)) {
      const aside = `${file}.replaced-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(file, aside);
      done.push(`the previous secret.key was kept as ${aside}`);
    }
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  })();
  return done;
}
