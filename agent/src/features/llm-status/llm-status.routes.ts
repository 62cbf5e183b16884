import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import type { LlmStatusService } from './llm-status.service.js';

/** Mounted at /api/llm/pipeline. */
export function llmStatusRoutes(service: LlmStatusService) {
  return new Hono<AppEnv>().get('/status', requireUser, async (c) => c.json(await service.status()));
}
