import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { PublicUser, RegisterInput } from '../../contract/auth.js';
import {
  hubIdentityInputSchema,
  setupInputSchema,
  setupStepInputSchema,
  setupStepParamSchema,
  type HubIdentityView,
  type SetupResult,
} from '../../contract/setup.js';
import { LOCAL_ONLY_MESSAGE } from '../../contract/invites.js';
import type { RestoreAccepted } from '../../contract/backups.js';
import type { AppEnv } from '../../http/app-env.js';
import { forbidden } from '../../lib/http-error.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { SetupService } from './setup.service.js';

export interface SetupRouteDeps {
  /**
   * Creates the owner as the first account and signs them in on this response (the auth
   * feature's sign-up, refusing when any account exists); answers the new user.
   */
  signUpOwner: (c: Context<AppEnv>, owner: RegisterInput) => Promise<PublicUser>;
  /** Whether the request comes from the home network (or the hub's VPN): only such may set up a fresh hub. */
  isLocalClient: (c: Context<AppEnv>) => boolean;
  /** First-boot restore (the backups feature): checks and stages an uploaded backup, then restarts into it. */
  restore: (c: Context<AppEnv>) => Promise<RestoreAccepted>;
}

/** The port people reached the console on, for the addresses the network check suggests. */
function consolePort(c: Context): string {
  const url = new URL(c.req.url);
  return url.port;
}

/** Mounted at /api/setup: the first-boot wizard at /install. */
export function setupRoutes(service: SetupService, deps: SetupRouteDeps) {
  // The signed-out steps of a fresh hub (creating the owner, skipping the wizard) decide who owns
  // it: a stranger who reaches the hub from outside must not get there first.
  const requireLocalClient = createMiddleware<AppEnv>(async (c, next) => {
    if (!deps.isLocalClient(c)) throw forbidden(LOCAL_ONLY_MESSAGE);
    await next();
  });
  return (
    new Hono<AppEnv>()
      // Public: the console asks before anyone has an account.
      .get('/status', (c) => c.json(service.status()))
      .post('/', requireLocalClient, validate('json', setupInputSchema), async (c) => {
        const user = await service.complete(c.req.valid('json'), (owner) => deps.signUpOwner(c, owner));
        return c.json({ user, progress: service.progress() } satisfies SetupResult, 201);
      })
      .post('/skip', requireLocalClient, (c) => c.json(service.skip()))
      // Multipart `file` and `passphrase`; 409 once the hub has an account.
      .post('/restore', requireLocalClient, async (c) => c.json(await deps.restore(c), 202))
      // Every signed-in person sees the hub's name in the header; strangers do not learn it.
      .get('/identity', requireUser, (c) =>
        c.json({ hubName: service.identity().hubName } satisfies HubIdentityView),
      )
      // The rest of the wizard runs as the owner (or another admin).
      .get('/progress', requireAdmin, (c) => c.json(service.progress()))
      .put('/hub', requireAdmin, validate('json', hubIdentityInputSchema), (c) =>
        c.json(service.updateIdentity(c.req.valid('json'))),
      )
      .post(
        '/steps/:step',
        requireAdmin,
        validate('param', setupStepParamSchema),
        validate('json', setupStepInputSchema),
        (c) => c.json(service.recordStep(c.req.valid('param').step, c.req.valid('json'))),
      )
      .post('/finish', requireAdmin, (c) => c.json(service.finish()))
      .get('/network-check', requireAdmin, async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await service.networkCheck(consolePort(c)));
      })
  );
}
