import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import {
  PASSWORD_RESET_EMAIL_DISABLED_MESSAGE,
  PASSWORD_RESET_INVALID_MESSAGE,
  type PasswordResetConfig,
} from '../../contract/password-reset.js';
import type { NewNotification } from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../adapters/mailer.js';
import { badRequest, conflict, tooManyRequests } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditRecorder } from '../audit/index.js';
import { createAuthRepository } from './auth.repository.js';
import type { AuthService } from './auth.service.js';
import { createThrottle, describeWait, type ThrottleRule } from './login-throttle.js';
import { passwordResetTokens } from './password-reset.table.js';

/** A reset link works once, for one hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * Limits on asking for links: per client address against someone scanning addresses or flooding
 * the outbox; per account so nobody's mailbox fills with reset mail. The per-account limit is
 * silent (the answer stays the same) so it reveals nothing about which accounts exist.
 */
export const DEFAULT_RESET_LIMITS = {
  perAddress: { max: 10, windowMs: 15 * 60_000 },
  perAccount: { max: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, ThrottleRule>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface PasswordResetDeps {
  db: Db;
  log: Logger;
  auth: Pick<AuthService, 'resetPassword'>;
  /** Null when SMTP is not configured: the owner resets passwords from the hub's command line. */
  mailer: Mailer | null;
  /** The console's address as people reach it, for the link in the e-mail (NEXUS_PUBLIC_URL). */
  publicUrl: string | null;
  notify?: (notification: NewNotification) => unknown;
  /** The security event log (who reset, from where). */
  audit?: AuditRecorder;
  limits?: Partial<typeof DEFAULT_RESET_LIMITS>;
  now?: () => number;
}

export function createPasswordResetService(deps: PasswordResetDeps) {
  const now = deps.now ?? Date.now;
  const { db, log } = deps;
  const limits = { ...DEFAULT_RESET_LIMITS, ...deps.limits };
  const perAddress = createThrottle(limits.perAddress, now);
  const perAccount = createThrottle(limits.perAccount, now);
  const mailer = deps.mailer && deps.publicUrl ? deps.mailer : null;
  const baseUrl = deps.publicUrl?.replace(/\/+$/, '') ?? '';
  const users = createAuthRepository(db, now);

  const sendLink = async (to: string, name: string, token: string) => {
    const link = `${baseUrl}/reset-password?token=${token}`;
    await mailer!.send({
      to,
      subject: 'Reset your Nexus Console password',
      text: [
        `Hello ${name},`,
        '',
        'Someone (hopefully you) asked to reset the password of your Nexus Console account.',
        'Open this link within 1 hour to choose a new password. It works once:',
        '',
        link,
        '',
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
    });
  };

  return {
    config(): PasswordResetConfig {
      return { emailEnabled: mailer !== null };
    },

    /**
     * Sends a reset link when the address has an account. The caller answers the same way
     * either way, and the mail goes out after the answer, so neither the words nor the time
     * taken tell whether an account exists.
     */
    request(email: string, clientAddress: string): void {
      if (!mailer) throw conflict(PASSWORD_RESET_EMAIL_DISABLED_MESSAGE);
      const wait = perAddress.blockedFor(clientAddress);
      if (wait > 0) {
        throw tooManyRequests(`Too many reset requests. Try again in ${describeWait(wait)}.`, wait / 1000);
      }
      perAddress.record(clientAddress);

      const user = users.findByEmail(email);
      if (!user) {
        log.info({ address: clientAddress }, 'password reset asked for an unknown address');
        return;
      }
      const accountKey = String(user.id);
      if (perAccount.blockedFor(accountKey) > 0) {
        log.warn({ userId: user.id, address: clientAddress }, 'password reset requests over the limit');
        return;
      }
      perAccount.record(accountKey);

      const token = randomBytes(32).toString('base64url');
      const t = now();
      db.transaction((tx) => {
        // Only the newest link works: asking again makes the earlier ones useless.
        tx.update(passwordResetTokens)
          .set({ usedAt: new Date(t) })
          .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)))
          .run();
        tx.delete(passwordResetTokens)
          .where(lt(passwordResetTokens.expiresAt, new Date(t - RESET_TOKEN_TTL_MS)))
          .run();
        tx.insert(passwordResetTokens)
          .values({
            tokenHash: hashToken(token),
            userId: user.id,
            createdAt: new Date(t),
            expiresAt: new Date(t + RESET_TOKEN_TTL_MS),
          })
          .run();
      });
      log.info({ userId: user.id, address: clientAddress }, 'password reset link issued');
      sendLink(user.email, user.name, token).catch((error: unknown) =>
        log.error({ err: error, userId: user.id }, 'sending the password reset e-mail failed'),
      );
    },

    /** Uses a link once: sets the password and signs the account out everywhere. */
    async confirm(token: string, password: string): Promise<void> {
      const tokenHash = hashToken(token);
      const t = new Date(now());
      // Claiming the link and checking it is unused and unexpired is one statement: two
      // requests racing with the same link cannot both succeed.
      const claimed = db
        .update(passwordResetTokens)
        .set({ usedAt: t })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, t),
          ),
        )
        .returning({ userId: passwordResetTokens.userId })
        .get();
      if (!claimed) throw badRequest(PASSWORD_RESET_INVALID_MESSAGE);

      const user = users.findById(claimed.userId);
      if (!user) throw badRequest(PASSWORD_RESET_INVALID_MESSAGE);
      await deps.auth.resetPassword(user.email, password);
      log.info({ userId: user.id }, 'password reset by e-mail link; every session signed out');
      deps.audit?.record({
        type: 'password_reset',
        actor: { id: user.id, email: user.email },
        details: { via: 'email_link' },
      });
      deps.notify?.({
        userId: user.id,
        level: 'warning',
        title: 'Your password was reset',
        body: 'Your password was changed with a reset link sent by e-mail, and every session was signed out. If this was not you, tell the hub owner.',
        link: '/settings',
      });
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
