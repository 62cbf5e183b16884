import { Hono } from 'hono';
import type { Health } from '../../contract/health.js';
import type { AppEnv } from '../../http/app-env.js';

export function healthRoutes(version: string) {
  return new Hono<AppEnv>().get('/', (c) => c.json({ status: 'ok', version } satisfies Health));
}
