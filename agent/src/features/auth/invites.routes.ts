import { Hono, type Context } from 'hono';
import {
  createInviteInputSchema,
  inviteIdParamSchema,
  registrationModeInputSchema,
  type CreatedInvite,
  type InviteList,
  type RegistrationStatus,
} from '../../contract/invites.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import { isSecureRequest } from '../../http/request-info.js';
import { validate } from '../../http/validate.js';
import type { RegistrationService } from './registration.service.js';

export interface InviteRouteOptions {
  /** NEXUS_PUBLIC_URL: the console's configured address, for invite links. */
  publicUrl: string | null;
  trustProxy: boolean;
  /** Whether any account exists yet (the auth feature's answer). */
  hasAccounts: () => boolean;
}

/**
 * Where the invite link points: the configured public address when there is one; otherwise the
 * address the admin has the console open at, which is one the household can reach. (Only admins
 * create invites, and the Host header is checked before any route runs.)
 */
export function consoleOrigin(
  c: Context,
  { publicUrl, trustProxy }: Pick<InviteRouteOptions, 'publicUrl' | 'trustProxy'>,
): string {
  if (publicUrl) return publicUrl;
  const url = new URL(c.req.url);
  if (isSecureRequest(c, trustProxy)) url.protocol = 'https:';
  return url.origin;
}

/**
 * `/api/auth/registration`: the registration mode. Readable signed out, since the sign-in screen
 * needs it to say what the Register tab offers; only admins change it.
 */
export function registrationRoutes(registration: RegistrationService, opts: InviteRouteOptions) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({
        mode: registration.mode(),
        firstAccount: !opts.hasAccounts(),
      } satisfies RegistrationStatus);
    })
    .put('/', requireAdmin, validate('json', registrationModeInputSchema), (c) => {
      registration.setMode(c.req.valid('json').mode, c.get('user').id);
      return c.json({ mode: registration.mode(), firstAccount: false } satisfies RegistrationStatus);
    });
}

/** `/api/invites`: one-time invites to register, for admins (the console's /user-management). */
export function inviteRoutes(registration: RegistrationService, opts: InviteRouteOptions) {
  return new Hono<AppEnv>()
    .use(requireAdmin)
    .get('/', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ invites: registration.listInvites() } satisfies InviteList);
    })
    .post('/', validate('json', createInviteInputSchema), (c) => {
      // The code is in this answer only: no cache may keep it.
      c.header('Cache-Control', 'no-store');
      const created = registration.createInvite(
        c.get('user').id,
        c.req.valid('json'),
        consoleOrigin(c, opts),
      );
      return c.json(created satisfies CreatedInvite, 201);
    })
    .delete('/:id', validate('param', inviteIdParamSchema), (c) => {
      registration.revokeInvite(c.get('user').id, c.req.valid('param').id);
      return c.json({ ok: true }, 200);
    });
}
