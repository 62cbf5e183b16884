import { Hono, type Context } from 'hono';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import {
  catalogDeployInputSchema,
  catalogParamSchema,
  containerParamSchema,
  deployStackInputSchema,
  deploymentsQuerySchema,
  imageParamSchema,
  logsQuerySchema,
  MAX_COMPOSE_BYTES,
  removeContainerQuerySchema,
  removeImageQuerySchema,
  removeStackQuerySchema,
  stackActionQuerySchema,
  stackParamSchema,
  stackVariablesSchema,
  stopQuerySchema,
  type DeployEvent,
  type Deployment,
  type ProbeResult,
} from '../../contract/docker.js';
import { isAdminRole } from '../../contract/auth.js';
import { dockerUpdatesQuerySchema } from '../../contract/docker-updates.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { HttpError } from '../../lib/http-error.js';
import type { CatalogService } from './catalog.service.js';
import type { DockerService, Viewer } from './docker.service.js';
import type { Actor, Emit, StacksService } from './stacks.service.js';
import type { UpdatesService } from './updates.service.js';

const redeployInputSchema = z.object({
  /** Pull every image first (the default), or recreate from the images already here. */
  pull: z.boolean().optional().default(true),
  compose: z.string().min(1).max(MAX_COMPOSE_BYTES).optional(),
  variables: stackVariablesSchema.optional(),
});

const NDJSON = 'application/x-ndjson';

// Context without parameters: these helpers serve routes whose inputs differ.
const actorOf = (c: Context): Actor => {
  const user = (c as Context<AppEnv>).get('user');
  return { id: user?.id ?? null, name: user?.name ?? 'unknown' };
};

const viewerOf = (c: Context): Viewer => {
  const user = (c as Context<AppEnv>).get('user');
  return { admin: user ? isAdminRole(user.role) : false };
};

/**
 * Runs a deployment. With `Accept: application/x-ndjson` the answer is a stream of DeployEvents
 * (pull progress per layer, steps, then `done` or `error`), so the browser can draw progress
 * bars; otherwise a plain JSON answer once it has finished. Either way the deployment runs to
 * its end even if the browser goes away, so nothing is left half-done by a closed tab.
 */
async function runDeployment(
  c: Context,
  preflight: () => Promise<unknown>,
  run: (emit: Emit) => Promise<{ deployment: Deployment; probe?: ProbeResult }>,
  successStatus: 200 | 201 = 200,
) {
  // Refusals that need no engine work (bad file 400, engine down 502, name taken 409) keep their status.
  await preflight();
  if (!(c.req.header('accept') ?? '').includes(NDJSON)) {
    return c.json(await run(() => {}), successStatus);
  }
  c.header('Content-Type', NDJSON);
  c.header('Cache-Control', 'no-store');
  return stream(c, async (out) => {
    let open = true;
    out.onAbort(() => {
      open = false;
    });
    const send = (event: DeployEvent) => {
      // Hono's write settles even when the client is gone; catch anyway, a rejection here would end the agent.
      if (open) out.write(`${JSON.stringify(event)}\n`).catch(() => (open = false));
    };
    try {
      const { deployment } = await run(send);
      send({ type: 'done', deployment });
    } catch (err) {
      const http = err instanceof HttpError ? err : new HttpError(502, (err as Error).message);
      send({ type: 'error', status: http.status, message: http.message, details: http.details });
    }
  });
}

/**
 * `/api/fleet/stacks` (issue 24): the swarm's stacks as `docker stack ls` lists them, and their
 * removal (`docker stack rm`). Deploys go through `POST /api/docker/stacks` with target: fleet.
 */
export function fleetStackRoutes(stacks: StacksService) {
  return new Hono<AppEnv>()
    .get('/', requireUser, async (c) => c.json({ stacks: await stacks.fleetList() }))
    .delete('/:name', requireAdmin, validate('param', stackParamSchema), async (c) =>
      c.json({ deployment: await stacks.removeFromFleet(c.req.valid('param').name, actorOf(c)) }),
    );
}

export function dockerRoutes(deps: {
  docker: DockerService;
  stacks: StacksService;
  catalog: CatalogService;
  updates: UpdatesService;
}) {
  const { docker, stacks, catalog, updates } = deps;
  return (
    new Hono<AppEnv>()
      .get('/engine', requireUser, async (c) => c.json(await docker.engineStatus()))

      // ---- containers
      .get('/containers', requireUser, async (c) =>
        c.json({ containers: await docker.listContainers(viewerOf(c)) }),
      )
      .get('/containers/:id', requireUser, validate('param', containerParamSchema), async (c) =>
        c.json(await docker.inspect(c.req.valid('param').id, viewerOf(c))),
      )
      .post('/containers/:id/start', requireAdmin, validate('param', containerParamSchema), async (c) => {
        await docker.start(c.req.valid('param').id);
        return c.json({ ok: true });
      })
      .post(
        '/containers/:id/stop',
        requireAdmin,
        validate('param', containerParamSchema),
        validate('query', stopQuerySchema),
        async (c) => {
          await docker.stop(c.req.valid('param').id, c.req.valid('query').t);
          return c.json({ ok: true });
        },
      )
      .post(
        '/containers/:id/restart',
        requireAdmin,
        validate('param', containerParamSchema),
        validate('query', stopQuerySchema),
        async (c) => {
          await docker.restart(c.req.valid('param').id, c.req.valid('query').t);
          return c.json({ ok: true });
        },
      )
      .delete(
        '/containers/:id',
        requireAdmin,
        validate('param', containerParamSchema),
        validate('query', removeContainerQuerySchema),
        async (c) => {
          await docker.remove(c.req.valid('param').id, c.req.valid('query'));
          return c.json({ ok: true });
        },
      )
      .get(
        '/containers/:id/logs',
        requireUser,
        validate('param', containerParamSchema),
        validate('query', logsQuerySchema),
        async (c) => {
          const query = c.req.valid('query');
          const logs = await docker.logs(c.req.valid('param').id, query);
          if (query.format === 'json') return c.json(logs);
          const text = logs.lines.map((l) => (l.ts ? `${l.ts} ${l.text}` : l.text)).join('\n');
          return c.text(text ? `${text}\n` : '');
        },
      )
      // ---- image updates (admins: the check names every image and registry, the update recreates)
      .get('/updates', requireAdmin, validate('query', dockerUpdatesQuerySchema), async (c) =>
        c.json(await updates.list({ refresh: c.req.valid('query').refresh })),
      )
      .post('/containers/:id/update', requireAdmin, validate('param', containerParamSchema), async (c) =>
        c.json(await updates.update(c.req.valid('param').id)),
      )
      .get('/containers/:id/stats', requireUser, validate('param', containerParamSchema), async (c) =>
        c.json(await docker.stats(c.req.valid('param').id)),
      )

      // ---- images
      .get('/images', requireUser, async (c) => c.json({ images: await docker.listImages() }))
      .delete(
        '/images/:id',
        requireAdmin,
        validate('param', imageParamSchema),
        validate('query', removeImageQuerySchema),
        async (c) => {
          await docker.removeImage(c.req.valid('param').id, c.req.valid('query').force);
          return c.json({ ok: true });
        },
      )

      // ---- stacks
      .get('/stacks', requireUser, async (c) => c.json({ stacks: await stacks.list() }))
      .get('/stacks/:name', requireUser, validate('param', stackParamSchema), async (c) => {
        const detail = await stacks.get(c.req.valid('param').name);
        // A compose file holds the stack's environment (passwords written into it): admins only.
        return c.json(viewerOf(c).admin ? detail : { ...detail, compose: null });
      })
      .post('/stacks', requireAdmin, validate('json', deployStackInputSchema), (c) => {
        const input = c.req.valid('json');
        return runDeployment(
          c,
          () => stacks.preflightDeploy(input),
          async (emit) => ({ deployment: await stacks.deploy(input, actorOf(c), emit) }),
          201,
        );
      })
      .post(
        '/stacks/:name/redeploy',
        requireAdmin,
        validate('param', stackParamSchema),
        validate('json', redeployInputSchema),
        (c) => {
          const { name } = c.req.valid('param');
          const input = c.req.valid('json');
          return runDeployment(
            c,
            () => stacks.preflightRedeploy(name, input),
            async (emit) => ({ deployment: await stacks.redeploy(name, input, actorOf(c), emit) }),
          );
        },
      )
      .post('/stacks/:name/start', requireAdmin, validate('param', stackParamSchema), async (c) =>
        c.json({ deployment: await stacks.start(c.req.valid('param').name, actorOf(c)) }),
      )
      .post(
        '/stacks/:name/stop',
        requireAdmin,
        validate('param', stackParamSchema),
        validate('query', stackActionQuerySchema),
        async (c) =>
          c.json({
            deployment: await stacks.stop(c.req.valid('param').name, actorOf(c), c.req.valid('query').t),
          }),
      )
      .delete(
        '/stacks/:name',
        requireAdmin,
        validate('param', stackParamSchema),
        validate('query', removeStackQuerySchema),
        async (c) =>
          c.json({
            deployment: await stacks.remove(c.req.valid('param').name, actorOf(c), c.req.valid('query')),
          }),
      )
      .get('/deployments', requireUser, validate('query', deploymentsQuerySchema), (c) =>
        c.json({ deployments: stacks.history(c.req.valid('query')) }),
      )

      // ---- app catalog (the deploy screens)
      .get('/catalog', requireUser, async (c) => c.json({ apps: await catalog.list() }))
      .post(
        '/catalog/:app/deploy',
        requireAdmin,
        validate('param', catalogParamSchema),
        validate('json', catalogDeployInputSchema),
        (c) => {
          const { app } = c.req.valid('param');
          const { settings, target } = c.req.valid('json');
          return runDeployment(
            c,
            () => catalog.preflight(app, settings, target),
            (emit) => catalog.deploy(app, settings, actorOf(c), emit, target),
            201,
          );
        },
      )
      .post('/catalog/:app/probe', requireUser, validate('param', catalogParamSchema), async (c) =>
        c.json(await catalog.probe(c.req.valid('param').app)),
      )
  );
}
