import { Hono } from 'hono';
import {
  PASSWORD_RESET_DONE_MESSAGE,
  PASSWORD_RESET_REQUESTED_MESSAGE,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  type PasswordResetConfig,
} from '../../contract/password-reset.js';
import type { AppEnv } from '../../http/app-env.js';
import { clientAddress } from '../../http/request-info.js';
import { validate } from '../../http/validate.js';
import type { PasswordResetService } from './password-reset.service.js';

/** `/api/auth/password-reset`: the /forgot-password and /reset-password screens. Public by nature. */
export function passwordResetRoutes(resets: PasswordResetService, { trustProxy }: { trustProxy: boolean }) {
  return new Hono<AppEnv>()
    .get('/config', (c) => c.json(resets.config() satisfies PasswordResetConfig, 200))
    .post('/request', validate('json', passwordResetRequestSchema), (c) => {
      resets.request(c.req.valid('json').email, clientAddress(c, trustProxy));
      return c.json({ message: PASSWORD_RESET_REQUESTED_MESSAGE }, 202);
    })
    .post('/confirm', validate('json', passwordResetConfirmSchema), async (c) => {
      const { token, password } = c.req.valid('json');
      await resets.confirm(token, password);
      return c.json({ message: PASSWORD_RESET_DONE_MESSAGE }, 200);
    });
}
