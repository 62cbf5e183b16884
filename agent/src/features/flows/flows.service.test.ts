import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flowDefinitionSchema } from '../../contract/flows.js';
import { openDatabase, type DbHandle } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { users } from '../auth/auth.table.js';
import { createFlowsRepository } from './flows.repository.js';
import { RUN_BROKE_OFF, createFlowsService } from './flows.service.js';

let dir: string;
let handle: DbHandle;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-flows-'));
  handle = openDatabase(dir);
  handle.db
    .insert(users)
    .values({ name: 'Mia', email: 'mia@example.com', emailNormalized: 'mia@example.com', passwordHash: 'x' })
    .run();
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A service whose run-progress writes fail (a full disk, a closed database) until `heal()`. */
function setup() {
  const repo = createFlowsRepository(handle.db);
  let broken = true;
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
  const service = createFlowsService({
    repo: {
      ...repo,
      updateRun(id, changes) {
        // Progress saves fail; the final "failed" record goes through, as after a short disk hiccup.
        if (broken && changes.status === undefined) throw new Error('SQLITE_FULL: database or disk is full');
        repo.updateRun(id, changes);
      },
    },
    secrets: createSecretBox(randomBytes(32)),
    live: { registerTopic: () => undefined, hasSubscribers: () => false, publish: () => undefined },
    ports: { http: { request: () => Promise.reject(new Error('no HTTP here')) } },
    log: log as unknown as Logger,
    dataDir: dir,
  });
  const actor = { id: 1, role: 'user' as const };
  const flow = service.create(
    actor,
    flowDefinitionSchema.parse({
      name: 'Check',
      trigger: { type: 'api' },
      stages: [{ id: 'c', name: 'C', kind: 'condition', config: { value: 'x', compareTo: 'x' } }],
    }),
  );
  return { service, repo, actor, flow, log, heal: () => (broken = false) };
}

describe('a run whose record cannot be written', () => {
  it('started without waiting: fails the run and logs, no unhandled rejection', async () => {
    const { service, repo, actor, flow, log } = setup();
    const started = await service.runAsUser(actor, flow.id, { text: 'hi' }, null, false);
    expect(started.status).toBe('running');
    await service.idle();
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
    expect(repo.run(started.id)).toMatchObject({ status: 'failed', error: RUN_BROKE_OFF });
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ runId: started.id, err: expect.any(Error) }),
      'flows: run broke off',
    );
  });

  it('started with ?wait: answers the failed run instead of rejecting', async () => {
    const { service, actor, flow, heal } = setup();
    const run = await service.runAsUser(actor, flow.id, null, null, true);
    expect(run).toMatchObject({ status: 'failed', error: RUN_BROKE_OFF });
    expect(run.stages[0]).toMatchObject({ status: 'failed', error: RUN_BROKE_OFF });
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
    heal();
    expect(await service.runAsUser(actor, flow.id, null, null, true)).toMatchObject({ status: 'succeeded' });
  });
});
