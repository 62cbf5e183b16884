import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  createApiKeyInputSchema,
  createFlowInputSchema,
  flowExportSchema,
  runFlowInputSchema,
  runQuerySchema,
  schedulePreviewQuerySchema,
  setFlowStatusInputSchema,
  updateFlowInputSchema,
  type FlowRun,
} from '../../contract/flows.js';
import type { AppEnv } from '../../http/app-env.js';
import { audioBodyLimit, isAudio } from '../../http/body-limits.js';
import { checksCredential, requireUser, type SatelliteAuthenticator } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { HttpError, unauthorized } from '../../lib/http-error.js';
import type { FlowsService } from './flows.service.js';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParam = z.object({ id });
const runParam = z.object({ runId: id });
const versionParam = z.object({ id, version: id });
const hookParam = z.object({ flowId: id, secret: z.string().min(1).max(200) });
const audioQuery = z.object({ which: z.enum(['clip', 'speech']).default('clip') });

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

const waits = (query: { wait?: 'true' | 'false' }) => query.wait === 'true';

/** 200 with the finished run when the caller waited, 202 with the started run otherwise. */
function answerRun(c: Context, run: FlowRun, waited: boolean) {
  return waited ? c.json(run, 200) : c.json(run, 202);
}

/** Audio bodies get the audio limit; the app-wide limit already covers everything else. */
const audioAware = createMiddleware<AppEnv>(async (c, next) => {
  if (isAudio(c.req.header('content-type'))) return audioBodyLimit(c, next);
  await next();
});

/**
 * The trigger input of a run request: a WAV clip (audio/*), a JSON `{ input }`, or no body.
 * Two body types on one route, so zod is applied here rather than through validate('json').
 */
async function runBody(c: Context): Promise<{ input: unknown; audio: Buffer | null }> {
  const type = c.req.header('content-type') ?? '';
  if (isAudio(type)) {
    const audio = Buffer.from(await c.req.arrayBuffer());
    if (!audio.length) throw new HttpError(400, 'The audio body is empty');
    return { input: undefined, audio };
  }
  const text = await c.req.text();
  if (!text.trim()) return { input: undefined, audio: null };
  if (!type.toLowerCase().includes('json')) {
    throw new HttpError(415, 'Send JSON ({"input": …}) or a WAV clip (audio/wav)');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid json: the body is not valid JSON');
  }
  const parsed = runFlowInputSchema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new HttpError(400, `Invalid json: ${first?.message ?? 'invalid value'}`, parsed.error.issues);
  }
  return { input: parsed.data.input, audio: null };
}

/** What a webhook passes to the first stage: JSON as sent, text as { text }, forms as fields. */
async function hookBody(c: Context): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    const form = await c.req.parseBody();
    return Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === 'string'));
  }
  const text = await c.req.text();
  if (!text) return null;
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      throw new HttpError(400, 'Invalid json: the body is not valid JSON');
    }
  }
  return { text };
}

/** `/api/flows`: flows, versions, runs and API keys of the signed-in person (admins see all flows). */
export function flowsRoutes(
  service: FlowsService,
  opts: { authenticateSatellite?: SatelliteAuthenticator } = {},
) {
  const runAuth = checksCredential(
    createMiddleware<AppEnv>(async (c, next) => {
      if (bearerToken(c.req.header('authorization')) === undefined && !c.get('user')) throw unauthorized();
      await next();
    }),
    'Session, FlowForge API key or satellite token',
  );

  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => c.json(service.list(c.get('user'))))
    .post('/', requireUser, validate('json', createFlowInputSchema), (c) =>
      c.json(service.create(c.get('user'), c.req.valid('json')), 201),
    )
    .post('/import', requireUser, validate('json', flowExportSchema), (c) =>
      c.json(service.create(c.get('user'), c.req.valid('json').flow), 201),
    )
    .get('/schedule/preview', requireUser, validate('query', schedulePreviewQuerySchema), (c) => {
      const { cron, timezone } = c.req.valid('query');
      return c.json({ nextRuns: service.schedulePreview(cron, timezone) });
    })
    .get('/api-keys', requireUser, (c) => c.json(service.apiKeys(c.get('user'))))
    .post('/api-keys', requireUser, validate('json', createApiKeyInputSchema), (c) =>
      c.json(service.createApiKey(c.get('user'), c.req.valid('json')), 201),
    )
    .post('/api-keys/:id/revoke', requireUser, validate('param', idParam), (c) =>
      c.json(service.revokeApiKey(c.get('user'), c.req.valid('param').id)),
    )
    .get('/runs/:runId', requireUser, validate('param', runParam), (c) =>
      c.json(service.run(c.get('user'), c.req.valid('param').runId)),
    )
    .get(
      '/runs/:runId/audio',
      requireUser,
      validate('param', runParam),
      validate('query', audioQuery),
      (c) => {
        const wav = service.audio(c.get('user'), c.req.valid('param').runId, c.req.valid('query').which);
        return c.body(new Uint8Array(wav), 200, {
          'content-type': 'audio/wav',
          'cache-control': 'private, no-store',
        });
      },
    )
    .post(
      '/runs/:runId/retry',
      requireUser,
      validate('param', runParam),
      validate('query', runQuerySchema),
      async (c) => {
        const waited = waits(c.req.valid('query'));
        return answerRun(c, await service.retry(c.get('user'), c.req.valid('param').runId, waited), waited);
      },
    )
    .post(
      '/runs/:runId/replay',
      requireUser,
      validate('param', runParam),
      validate('query', runQuerySchema),
      async (c) => {
        const waited = waits(c.req.valid('query'));
        return answerRun(c, await service.replay(c.get('user'), c.req.valid('param').runId, waited), waited);
      },
    )
    .get('/:id', requireUser, validate('param', idParam), (c) =>
      c.json(service.get(c.get('user'), c.req.valid('param').id)),
    )
    .put('/:id', requireUser, validate('param', idParam), validate('json', updateFlowInputSchema), (c) =>
      c.json(service.update(c.get('user'), c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id', requireUser, validate('param', idParam), (c) => {
      service.remove(c.get('user'), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .put(
      '/:id/status',
      requireUser,
      validate('param', idParam),
      validate('json', setFlowStatusInputSchema),
      (c) => c.json(service.setStatus(c.get('user'), c.req.valid('param').id, c.req.valid('json').status)),
    )
    .get('/:id/versions', requireUser, validate('param', idParam), (c) =>
      c.json(service.versions(c.get('user'), c.req.valid('param').id)),
    )
    .post('/:id/versions/:version/restore', requireUser, validate('param', versionParam), (c) => {
      const { id: flowId, version } = c.req.valid('param');
      return c.json(service.restore(c.get('user'), flowId, version));
    })
    .get('/:id/export', requireUser, validate('param', idParam), (c) =>
      c.json(service.exportFlow(c.get('user'), c.req.valid('param').id)),
    )
    .post('/:id/webhook/listen', requireUser, validate('param', idParam), (c) =>
      c.json(service.listen(c.get('user'), c.req.valid('param').id)),
    )
    .delete('/:id/webhook/listen', requireUser, validate('param', idParam), (c) =>
      c.json(service.stopListening(c.get('user'), c.req.valid('param').id)),
    )
    .get('/:id/runs', requireUser, validate('param', idParam), (c) =>
      c.json(service.runs(c.get('user'), c.req.valid('param').id)),
    )
    .post(
      '/:id/run',
      validate('param', idParam),
      validate('query', runQuerySchema),
      runAuth,
      audioAware,
      async (c) => {
        const flowId = c.req.valid('param').id;
        const waited = waits(c.req.valid('query'));
        const key = bearerToken(c.req.header('authorization'));
        const satelliteId = c.req.valid('query').satellite;
        // The credential is checked before the body is read, so a stranger learns nothing from its validation.
        if (satelliteId !== undefined) {
          if (!opts.authenticateSatellite) throw unauthorized('Satellites cannot start flows on this hub');
          const satellite = opts.authenticateSatellite(satelliteId, key);
          const { audio } = await runBody(c);
          return answerRun(c, await service.runFromSatellite(satellite, flowId, audio, waited), waited);
        }
        if (key !== undefined) {
          const { input, audio } = await runBody(c);
          return answerRun(c, await service.runWithApiKey(key, flowId, input, audio, waited), waited);
        }
        const user = c.get('user');
        if (!user) throw unauthorized();
        const { input, audio } = await runBody(c);
        return answerRun(c, await service.runAsUser(user, flowId, input, audio, waited), waited);
      },
    );
}

/** `/api/hooks`: webhook triggers, production (`/:flowId/:secret`) and test (`…/test`). */
export function hooksRoutes(service: FlowsService) {
  const hook = (test: boolean) => async (c: Context) => {
    const { flowId, secret } = hookParam.parse(c.req.param());
    const waited = c.req.query('wait') === 'true';
    return answerRun(c, await service.webhook(flowId, secret, test, () => hookBody(c), waited), waited);
  };
  return new Hono<AppEnv>()
    .post(
      '/:flowId/:secret',
      validate('param', hookParam),
      checksCredential(hook(false), 'Webhook secret in the path'),
    )
    .post(
      '/:flowId/:secret/test',
      validate('param', hookParam),
      checksCredential(hook(true), 'Webhook secret in the path'),
    );
}
