import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import { clientAddress } from '../../http/request-info.js';
import { classifyVisitor, lanSubnets, type InterfaceAddress } from './visitor.js';

export interface VisitorRouteDeps {
  trustProxy: boolean;
  /** The hub's interfaces (the metrics feature caches them), for its own LAN subnets. */
  interfaces: () => Promise<readonly InterfaceAddress[]>;
  /** The hub's WireGuard server address with prefix (e.g. 10.8.0.1/24), null when none is set up. */
  wireguardRange?: () => string | null | Promise<string | null>;
}

/** Mounted at /api/network: GET /visitor says which way the caller came in (/unifi-teleport's check). */
export function visitorRoutes(deps: VisitorRouteDeps) {
  return new Hono<AppEnv>().get('/visitor', requireUser, async (c) => {
    const [interfaces, wireguard] = await Promise.all([deps.interfaces(), deps.wireguardRange?.() ?? null]);
    return c.json(
      classifyVisitor(clientAddress(c, deps.trustProxy), { wireguard, lan: lanSubnets(interfaces) }),
    );
  });
}
