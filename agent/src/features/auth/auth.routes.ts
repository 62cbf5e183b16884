import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  changePasswordInputSchema,
  loginInputSchema,
  registerInputSchema,
  totpCodeInputSchema,
  type AuthResponse,
  type PublicUser,
} from '../../contract/auth.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireRecentAuth, requireUser } from '../../http/guards.js';
import {
  disableTwoFactorInputSchema,
  type EnableTwoFactorResponse,
} from '../../contract/account-security.js';
import { clientAddress, isSecureRequest } from '../../http/request-info.js';
import { validate } from '../../http/validate.js';
import { toPublicUser, type AuthService, type ClientInfo } from './auth.service.js';
import { REMEMBER_ME_MS, SESSION_COOKIE, type CreatedSession } from './session.service.js';

export interface AuthRouteOptions {
  /** NEXUS_TRUST_PROXY: believe X-Forwarded-Proto and X-Forwarded-For from the proxy in front. */
  trustProxy: boolean;
}

/**
 * The session cookie: unreadable by scripts, not sent on cross-site subrequests, Secure over
 * TLS. "Remember me" keeps it 30 days; otherwise it has no expiry and ends with the browser.
 */
export function setSessionCookie(c: Context, session: CreatedSession, trustProxy: boolean) {
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: isSecureRequest(c, trustProxy),
    ...(session.persistent ? { maxAge: Math.floor(REMEMBER_ME_MS / 1000) } : {}),
  });
}

function clearSessionCookie(c: Context, trustProxy: boolean) {
  deleteCookie(c, SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: isSecureRequest(c, trustProxy),
  });
}

export function clientInfo(c: Context, trustProxy: boolean): ClientInfo {
  return {
    address: clientAddress(c, trustProxy),
    userAgent: c.req.header('user-agent'),
    presentedToken: getCookie(c, SESSION_COOKIE),
  };
}

/** `/api/auth/*` (product brief, "Contract", Auth). */
export function authRoutes(auth: AuthService, { trustProxy }: AuthRouteOptions) {
  return (
    new Hono<AppEnv>()
      .get('/user', requireUser, (c) => c.json(toPublicUser(c.get('user')) satisfies PublicUser))
      .post('/login', validate('json', loginInputSchema), async (c) => {
        const { user, session } = await auth.login(c.req.valid('json'), clientInfo(c, trustProxy));
        setSessionCookie(c, session, trustProxy);
        return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 200);
      })
      .post('/register', validate('json', registerInputSchema), async (c) => {
        const { user, session } = await auth.register(c.req.valid('json'), clientInfo(c, trustProxy));
        setSessionCookie(c, session, trustProxy);
        return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 201);
      })
      // Signing out while signed out is not an error: the browser ends up signed out either way.
      .post('/logout', (c) => {
        auth.logout(getCookie(c, SESSION_COOKIE), c.get('user'));
        clearSessionCookie(c, trustProxy);
        return c.json({ ok: true }, 200);
      })
      .put(
        '/password',
        requireUser,
        requireRecentAuth(),
        validate('json', changePasswordInputSchema),
        async (c) => {
          await auth.changePassword(c.get('user'), c.req.valid('json'), c.get('sessionToken') ?? '');
          return c.json({ ok: true }, 200);
        },
      )
      .post('/2fa/setup', requireUser, (c) => c.json(auth.setupTwoFactor(c.get('user')), 200))
      .post('/2fa/enable', requireUser, validate('json', totpCodeInputSchema), async (c) => {
        const { user, recoveryCodes } = await auth.enableTwoFactor(c.get('user'), c.req.valid('json').code);
        return c.json({ user: toPublicUser(user), recoveryCodes } satisfies EnableTwoFactorResponse, 200);
      })
      .post(
        '/2fa/disable',
        requireUser,
        requireRecentAuth(),
        validate('json', disableTwoFactorInputSchema),
        async (c) => {
          const user = await auth.disableTwoFactor(c.get('user'), c.req.valid('json').code);
          return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 200);
        },
      )
  );
}
