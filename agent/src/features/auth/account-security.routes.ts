import { Hono } from 'hono';
import {
  reauthInputSchema,
  sessionIdParamSchema,
  twoFactorTestInputSchema,
  userSessionParamSchema,
  type RecoveryCodesResponse,
  type RecoveryCodesStatus,
  type SessionList,
  type TwoFactorTestResult,
} from '../../contract/account-security.js';
import { userIdParamSchema, type AuthResponse } from '../../contract/auth.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireRecentAuth, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { AuditLog } from '../audit/index.js';
import type { AccountAdmin } from './account-admin.js';
import type { AccountSecurityService } from './account-security.service.js';
import { clientInfo } from './auth.routes.js';
import { toPublicUser } from './auth.service.js';

export interface AccountSecurityRouteOptions {
  trustProxy: boolean;
  now?: () => number;
}

/** `/api/auth/*` additions: re-authentication, /2fa-test, recovery codes and the own session list. */
export function accountSecurityRoutes(service: AccountSecurityService, opts: AccountSecurityRouteOptions) {
  const recent = requireRecentAuth(opts.now);
  return new Hono<AppEnv>()
    .post('/reauth', requireUser, validate('json', reauthInputSchema), async (c) => {
      const at = await service.reauthenticate(
        c.get('user'),
        c.req.valid('json').password,
        c.get('sessionToken') ?? '',
        clientInfo(c, opts.trustProxy),
      );
      return c.json({ reauthenticatedAt: at.toISOString() }, 200);
    })
    .post('/2fa/test', requireUser, validate('json', twoFactorTestInputSchema), async (c) =>
      c.json(
        (await service.testTwoFactor(c.get('user'), c.req.valid('json').code)) satisfies TwoFactorTestResult,
      ),
    )
    .get('/recovery-codes', requireUser, (c) =>
      c.json(service.recoveryCodesStatus(c.get('user')) satisfies RecoveryCodesStatus),
    )
    .post('/recovery-codes', requireUser, recent, (c) =>
      c.json({
        recoveryCodes: service.regenerateRecoveryCodes(c.get('user'), clientInfo(c, opts.trustProxy)),
      } satisfies RecoveryCodesResponse),
    )
    .get('/sessions', requireUser, (c) =>
      c.json({ sessions: service.listOwnSessions(c.get('user')) } satisfies SessionList),
    )
    .post('/sessions/revoke-others', requireUser, (c) =>
      c.json({ revoked: service.revokeOtherSessions(c.get('user'), clientInfo(c, opts.trustProxy)) }),
    )
    .delete('/sessions/:id', requireUser, validate('param', sessionIdParamSchema), (c) => {
      service.revokeOwnSession(c.get('user'), c.req.valid('param').id, clientInfo(c, opts.trustProxy));
      return c.json({ ok: true }, 200);
    });
}

/** `/api/users/*` additions (admins): a user's sessions, and disabling or enabling an account. */
export function userSecurityRoutes(
  service: AccountSecurityService,
  accounts: AccountAdmin,
  audit: AuditLog,
  opts: AccountSecurityRouteOptions,
) {
  const recent = requireRecentAuth(opts.now);
  return new Hono<AppEnv>()
    .get('/:id/sessions', requireAdmin, validate('param', userIdParamSchema), (c) =>
      c.json({
        sessions: service.listUserSessions(c.get('user'), c.req.valid('param').id),
      } satisfies SessionList),
    )
    .delete('/:id/sessions/:sid', requireAdmin, validate('param', userSessionParamSchema), (c) => {
      const { id, sid } = c.req.valid('param');
      service.revokeUserSession(c.get('user'), id, sid, clientInfo(c, opts.trustProxy));
      return c.json({ ok: true }, 200);
    })
    .post('/:id/disable', requireAdmin, recent, validate('param', userIdParamSchema), (c) => {
      const actor = c.get('user');
      const user = accounts.disable(actor, c.req.valid('param').id);
      const client = clientInfo(c, opts.trustProxy);
      audit.record({
        type: 'account_disabled',
        actor,
        targetUser: user,
        ipAddress: client.address,
        userAgent: client.userAgent,
      });
      return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 200);
    })
    .post('/:id/enable', requireAdmin, recent, validate('param', userIdParamSchema), (c) => {
      const actor = c.get('user');
      const user = accounts.enable(actor, c.req.valid('param').id);
      const client = clientInfo(c, opts.trustProxy);
      audit.record({
        type: 'account_enabled',
        actor,
        targetUser: user,
        ipAddress: client.address,
        userAgent: client.userAgent,
      });
      return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 200);
    });
}
