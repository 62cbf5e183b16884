import { Hono } from 'hono';
import {
  uplinksInputSchema,
  wgPeerIdParamSchema,
  wgPeerInputSchema,
  wgPeerPatchSchema,
  wgServerInputSchema,
} from '../../contract/wireguard.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { UplinksService } from './uplinks.service.js';
import type { VpnEventLog } from './vpn-events.js';
import type { WgServerService } from './wg-server.service.js';

/** The hub's WireGuard server, its peers, the uplinks and their history (issue 17): admins only. */
export function wireguardRoutes(deps: {
  server: WgServerService;
  uplinks: UplinksService;
  events: VpnEventLog;
}) {
  return new Hono<AppEnv>()
    .get('/server', requireAdmin, async (c) => c.json(await deps.server.view()))
    .put('/server', requireAdmin, validate('json', wgServerInputSchema), async (c) =>
      c.json(await deps.server.save(c.req.valid('json'))),
    )
    .get('/peers', requireAdmin, async (c) => c.json({ peers: await deps.server.peers() }))
    .post('/peers', requireAdmin, validate('json', wgPeerInputSchema), async (c) =>
      c.json(await deps.server.createPeer(c.req.valid('json')), 201),
    )
    .get('/peers/:id/config', requireAdmin, validate('param', wgPeerIdParamSchema), (c) => {
      const config = deps.server.downloadConfig(c.req.valid('param').id);
      return c.body(config, 200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Disposition': `attachment; filename="nexus-wg-${c.req.valid('param').id}.conf"`,
        'Cache-Control': 'no-store',
      });
    })
    .patch(
      '/peers/:id',
      requireAdmin,
      validate('param', wgPeerIdParamSchema),
      validate('json', wgPeerPatchSchema),
      async (c) => c.json(await deps.server.updatePeer(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/peers/:id', requireAdmin, validate('param', wgPeerIdParamSchema), async (c) => {
      await deps.server.deletePeer(c.req.valid('param').id);
      return c.body(null, 204);
    })
    .get('/uplinks', requireAdmin, async (c) => c.json(await deps.uplinks.view()))
    .put('/uplinks', requireAdmin, validate('json', uplinksInputSchema), async (c) =>
      c.json(await deps.uplinks.save(c.req.valid('json'))),
    )
    .get('/events', requireAdmin, (c) => c.json({ events: deps.events.list() }));
}
