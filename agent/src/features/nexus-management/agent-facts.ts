import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { DB_FILE, type Db } from '../../db/client.js';
import type { Env } from '../../env.js';
import type { HubDebug } from '../../contract/nexus-management.js';

/** The database answers a query, and how big its files are. */
export function databaseFacts(db: Db, dataDir: string): HubDebug['database'] {
  db.get(sql`select 1`);
  const file = path.join(dataDir, DB_FILE);
  const size = (f: string) => {
    try {
      return fs.statSync(f).size;
    } catch {
      return 0;
    }
  };
  return { file, sizeBytes: size(file), walBytes: size(`${file}-wal`) };
}

/**
 * The agent's configuration as a technician needs it. Secrets (HA_TOKEN, SMTP_URL with its
 * password) are reported as set or not set, never shown.
 */
export function configFacts(env: Env): HubDebug['config'] {
  const set = (value: unknown) => (value === undefined || value === '' ? 'not set' : 'set');
  const shown = (value: unknown, fallback = 'not set') =>
    value === undefined || value === '' ? fallback : String(value);
  return [
    { name: 'NODE_ENV', value: env.NODE_ENV },
    { name: 'HOST', value: env.HOST },
    { name: 'PORT', value: String(env.PORT) },
    { name: 'NEXUS_DATA_DIR', value: env.dataDir },
    { name: 'NEXUS_HOST_ROOT', value: env.NEXUS_HOST_ROOT },
    { name: 'DOCKER_HOST', value: shown(env.DOCKER_HOST, 'the local socket') },
    { name: 'OLLAMA_URL', value: env.OLLAMA_URL },
    { name: 'HA_URL', value: shown(env.HA_URL) },
    { name: 'HA_TOKEN', value: set(env.HA_TOKEN) },
    { name: 'SMTP_URL', value: set(env.SMTP_URL) },
    { name: 'NEXUS_PUBLIC_URL', value: shown(env.NEXUS_PUBLIC_URL) },
    { name: 'NEXUS_TRUST_PROXY', value: String(env.NEXUS_TRUST_PROXY) },
    { name: 'NEXUS_TRUSTED_PROXIES', value: shown(env.NEXUS_TRUSTED_PROXIES.join(', ')) },
    { name: 'NEXUS_ALLOWED_HOSTS', value: shown(env.NEXUS_ALLOWED_HOSTS.join(', ')) },
    { name: 'LOG_LEVEL', value: env.LOG_LEVEL },
  ];
}
