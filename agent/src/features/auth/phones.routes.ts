import { Hono } from 'hono';
import {
  createPhonePairingInputSchema,
  pairPhoneInputSchema,
  pairedPhoneIdParamSchema,
  phonePairingIdParamSchema,
  type CreatedPhonePairing,
  type PairedPhoneList,
  type PhonePairingStatus,
} from '../../contract/phones.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { clientInfo, setSessionCookie } from './auth.routes.js';
import { consoleOrigin } from './invites.routes.js';
import type { PhonesService } from './phones.service.js';

export interface PhoneRouteOptions {
  /** NEXUS_PUBLIC_URL: where pairing links point when set. */
  publicUrl: string | null;
  trustProxy: boolean;
}

/** `/api/auth/phones`: pair a phone by a one-time link, list and revoke paired phones. */
export function phoneRoutes(phones: PhonesService, opts: PhoneRouteOptions) {
  return (
    new Hono<AppEnv>()
      // Public: the phone is not signed in yet; the token is its only credential.
      .post('/pair', validate('json', pairPhoneInputSchema), (c) => {
        const session = phones.pair(c.req.valid('json').token, clientInfo(c, opts.trustProxy));
        setSessionCookie(c, session, opts.trustProxy);
        return c.json({ ok: true }, 200);
      })
      .use(requireUser)
      .get('/', (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json({ phones: phones.list(c.get('user').id) } satisfies PairedPhoneList);
      })
      .post('/pairings', validate('json', createPhonePairingInputSchema), (c) => {
        // The link is in this answer only: no cache may keep it.
        c.header('Cache-Control', 'no-store');
        const created = phones.createPairing(
          c.get('user').id,
          c.req.valid('json').name,
          consoleOrigin(c, opts),
        );
        return c.json(created satisfies CreatedPhonePairing, 201);
      })
      .get('/pairings/:id', validate('param', phonePairingIdParamSchema), (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(
          phones.pairingStatus(c.get('user').id, c.req.valid('param').id) satisfies PhonePairingStatus,
        );
      })
      .delete('/:id', validate('param', pairedPhoneIdParamSchema), (c) => {
        const user = c.get('user');
        phones.revoke(user, c.req.valid('param').id, clientInfo(c, opts.trustProxy));
        return c.json({ ok: true }, 200);
      })
  );
}
