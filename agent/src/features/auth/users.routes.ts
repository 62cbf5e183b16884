import { Hono } from 'hono';
import {
  updateUserInputSchema,
  userIdParamSchema,
  type AuthResponse,
  type UserList,
} from '../../contract/auth.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireRecentAuth } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { toPublicUser, type AuthService } from './auth.service.js';

/**
 * `/api/users`: account management for admins and superadmins (the console's /user-management).
 * Role changes apply at once: every request reads the role fresh through the session.
 */
export function userRoutes(auth: AuthService) {
  return new Hono<AppEnv>()
    .use(requireAdmin)
    .get('/', (c) => c.json({ users: auth.listUsers().map(toPublicUser) } satisfies UserList))
    .patch(
      '/:id',
      requireRecentAuth(),
      validate('param', userIdParamSchema),
      validate('json', updateUserInputSchema),
      (c) => {
        const user = auth.changeRole(c.get('user'), c.req.valid('param').id, c.req.valid('json').role);
        return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 200);
      },
    )
    .delete('/:id', requireRecentAuth(), validate('param', userIdParamSchema), (c) => {
      auth.deleteUser(c.get('user'), c.req.valid('param').id);
      return c.json({ ok: true }, 200);
    });
}
