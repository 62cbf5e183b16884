import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AuthResponse } from '../../contract/auth.js';
import {
  authenticationResponseSchema,
  passkeyIdParamSchema,
  passkeyLoginInputSchema,
  passkeyLoginOptionsInputSchema,
  registerPasskeyInputSchema,
  renamePasskeyInputSchema,
  type PasskeyList,
  type PasskeyResponse,
} from '../../contract/passkeys.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireRecentAuth, requireUser } from '../../http/guards.js';
import { isSecureRequest } from '../../http/request-info.js';
import { validate } from '../../http/validate.js';
import { clientInfo, setSessionCookie } from './auth.routes.js';
import { toPublicUser } from './auth.service.js';
import { PASSKEY_CHALLENGE_TTL_MS, type PasskeyService, type RelyingParty } from './passkeys.service.js';

export interface PasskeyRouteOptions {
  trustProxy: boolean;
  /** NEXUS_PUBLIC_URL: when set, its host is the relying party whatever the request's Host says. */
  publicUrl: string | null;
  now?: () => number;
}

/** Carries the sign-in ceremony's handle from login/options to login/verify, and nowhere else. */
const LOGIN_HANDLE_COOKIE = 'nexus_passkey_login';
const LOGIN_HANDLE_PATH = '/api/auth/passkeys/login';

/**
 * The relying party: the host of NEXUS_PUBLIC_URL, else the host the browser asked for (the
 * agent's host check has already refused names that are not the hub's). The origin is what the
 * browser puts in clientDataJSON: scheme, host and port of the page.
 */
export function relyingParty(c: Context, opts: PasskeyRouteOptions): RelyingParty {
  if (opts.publicUrl) {
    const url = new URL(opts.publicUrl);
    return { rpID: url.hostname, origin: url.origin };
  }
  const url = new URL(c.req.url);
  const host = c.req.header('host') ?? url.host;
  const scheme = isSecureRequest(c, opts.trustProxy) ? 'https' : 'http';
  const origin = new URL(`${scheme}://${host}`);
  // WebAuthn's RP ID is a bare host name; an IPv6 literal keeps no brackets.
  return { rpID: origin.hostname.replace(/^\[(.*)\]$/, '$1'), origin: origin.origin };
}

/** `/api/auth/passkeys/*`: WebAuthn registration, sign-in, re-authentication and the list. */
export function passkeyRoutes(passkeys: PasskeyService, opts: PasskeyRouteOptions) {
  const { trustProxy } = opts;
  const rp = (c: Context) => relyingParty(c, opts);
  return new Hono<AppEnv>()
    .post('/login/options', validate('json', passkeyLoginOptionsInputSchema), async (c) => {
      const { options, handle } = await passkeys.loginOptions(rp(c));
      setCookie(c, LOGIN_HANDLE_COOKIE, handle, {
        httpOnly: true,
        sameSite: 'Strict',
        path: LOGIN_HANDLE_PATH,
        secure: isSecureRequest(c, trustProxy),
        maxAge: Math.floor(PASSKEY_CHALLENGE_TTL_MS / 1000),
      });
      return c.json(options, 200);
    })
    .post('/login/verify', validate('json', passkeyLoginInputSchema), async (c) => {
      const handle = getCookie(c, LOGIN_HANDLE_COOKIE);
      // Spent whatever the outcome: the challenge behind it is gone.
      deleteCookie(c, LOGIN_HANDLE_COOKIE, {
        path: LOGIN_HANDLE_PATH,
        secure: isSecureRequest(c, trustProxy),
      });
      const { user, session } = await passkeys.login(
        handle,
        c.req.valid('json'),
        rp(c),
        clientInfo(c, trustProxy),
      );
      setSessionCookie(c, session, trustProxy);
      return c.json({ user: toPublicUser(user) } satisfies AuthResponse, 200);
    })
    .get('/', requireUser, (c) => c.json({ passkeys: passkeys.list(c.get('user')) } satisfies PasskeyList))
    .post('/register/options', requireUser, async (c) =>
      c.json(await passkeys.registrationOptions(c.get('user'), rp(c)), 200),
    )
    .post('/register/verify', requireUser, validate('json', registerPasskeyInputSchema), async (c) => {
      const passkey = await passkeys.verifyRegistration(
        c.get('user'),
        c.req.valid('json'),
        rp(c),
        clientInfo(c, trustProxy),
      );
      return c.json({ passkey } satisfies PasskeyResponse, 201);
    })
    .post('/reauth/options', requireUser, async (c) =>
      c.json(await passkeys.reauthOptions(c.get('user'), rp(c)), 200),
    )
    .post('/reauth/verify', requireUser, validate('json', authenticationResponseSchema), async (c) => {
      await passkeys.verifyReauth(
        c.get('user'),
        c.get('sessionToken') ?? '',
        c.req.valid('json'),
        rp(c),
        clientInfo(c, trustProxy),
      );
      return c.json({ ok: true }, 200);
    })
    .patch(
      '/:id',
      requireUser,
      validate('param', passkeyIdParamSchema),
      validate('json', renamePasskeyInputSchema),
      (c) => {
        const passkey = passkeys.rename(
          c.get('user'),
          c.req.valid('param').id,
          c.req.valid('json').name,
          clientInfo(c, trustProxy),
        );
        return c.json({ passkey } satisfies PasskeyResponse, 200);
      },
    )
    .delete(
      '/:id',
      requireUser,
      requireRecentAuth(opts.now),
      validate('param', passkeyIdParamSchema),
      (c) => {
        passkeys.remove(c.get('user'), c.req.valid('param').id, clientInfo(c, trustProxy));
        return c.json({ ok: true }, 200);
      },
    );
}
