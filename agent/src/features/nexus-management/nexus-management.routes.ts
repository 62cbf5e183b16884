import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  accessTokenInputSchema,
  idParamSchema,
  remoteHubInputSchema,
  remoteHubUpdateSchema,
  type AccessToken,
} from '../../contract/nexus-management.js';
import { hubIdentityInputSchema, type HubIdentityInput } from '../../contract/setup.js';
import type { AppEnv } from '../../http/app-env.js';
import { checksCredential, guardAccess, requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { unauthorized } from '../../lib/http-error.js';
import type { AuditRecorder } from '../audit/index.js';
import type { NexusManagementService } from './nexus-management.service.js';

export interface NexusManagementRouteDeps {
  /** Renames the hub or changes its time zone (the setup feature keeps the identity). */
  updateIdentity: (input: HubIdentityInput) => unknown;
  /** The security event log: other hubs' access tokens stored here. */
  audit?: AuditRecorder;
}

const consolePort = (c: Context) => new URL(c.req.url).port;

/**
 * Who may read this hub's peer status: another hub with one of its access tokens
 * (Authorization: Bearer nxh_…), or anyone signed in. The token opens this one endpoint only.
 */
function requirePeer(service: NexusManagementService) {
  const guard = createMiddleware<AppEnv & { Variables: { peerToken: AccessToken | null } }>(
    async (c, next) => {
      const header = c.req.header('authorization');
      const bearer = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
      const token = bearer ? service.verifyToken(bearer) : null;
      if (bearer && !token) throw unauthorized('Unknown or revoked access token');
      if (!token && !c.get('user')) throw unauthorized();
      c.set('peerToken', token);
      await next();
    },
  );
  // The API reference lists it as closed to callers with neither a session nor a token.
  guardAccess.set(guard, 'any');
  return checksCredential(guard, 'Hub access token');
}

/** Mounted at /api/nexus, beside the dashboard's /api/nexus/status. */
export function nexusManagementRoutes(service: NexusManagementService, deps: NexusManagementRouteDeps) {
  /** The setting's name only, never the token. */
  const peerTokenChanged = (hub: { id: number; name: string }) =>
    deps.audit?.record({
      type: 'settings_secret_changed',
      target: `nexus.hubs.${hub.name}.token`,
      details: { hubId: hub.id },
    });
  return (
    new Hono<AppEnv>()
      .get('/overview', requireUser, async (c) => c.json(await service.overview()))
      .put('/identity', requireAdmin, validate('json', hubIdentityInputSchema), async (c) => {
        deps.updateIdentity(c.req.valid('json'));
        return c.json(await service.overview());
      })
      .post('/self-test', requireAdmin, async (c) => c.json(await service.selfTest(consolePort(c))))
      .get('/debug', requireAdmin, (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(service.debug());
      })
      .get('/peer', requirePeer(service), async (c) => c.json(await service.peerStatus()))

      // ---- this hub's access tokens
      .get('/access-tokens', requireAdmin, (c) => c.json({ tokens: service.listTokens() }))
      .post('/access-tokens', requireAdmin, validate('json', accessTokenInputSchema), (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(service.createToken(c.req.valid('json').name, c.get('user').id), 201);
      })
      .delete('/access-tokens/:id', requireAdmin, validate('param', idParamSchema), (c) => {
        service.revokeToken(c.req.valid('param').id);
        return c.json({ ok: true });
      })

      // ---- other hubs
      .get('/hubs', requireUser, async (c) => c.json({ hubs: await service.listHubs() }))
      .post('/hubs', requireAdmin, validate('json', remoteHubInputSchema), async (c) => {
        const hub = await service.addHub(c.req.valid('json'));
        peerTokenChanged(hub);
        return c.json(hub, 201);
      })
      .patch(
        '/hubs/:id',
        requireAdmin,
        validate('param', idParamSchema),
        validate('json', remoteHubUpdateSchema),
        async (c) => {
          const input = c.req.valid('json');
          const hub = await service.updateHub(c.req.valid('param').id, input);
          if (input.token !== undefined) peerTokenChanged(hub);
          return c.json(hub);
        },
      )
      .post('/hubs/:id/refresh', requireUser, validate('param', idParamSchema), async (c) =>
        c.json(await service.refreshHub(c.req.valid('param').id)),
      )
      .delete('/hubs/:id', requireAdmin, validate('param', idParamSchema), (c) => {
        service.removeHub(c.req.valid('param').id);
        return c.json({ ok: true });
      })
  );
}
