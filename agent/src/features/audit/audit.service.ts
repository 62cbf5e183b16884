import type { AuditEventType } from '../../contract/audit.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { currentRequestOrigin } from './audit-scope.js';
import { auditEvents } from './audit.table.js';

/** Who did it or whom it concerns: an account's id and its e-mail at the time. */
export interface AuditPerson {
  id: number;
  email: string;
}

export interface AuditInput {
  type: AuditEventType;
  outcome?: 'success' | 'failure';
  /**
   * Who acted; null for a stranger (e.g. a failed sign-in for an unknown e-mail). Omitted (like
   * ipAddress and userAgent): taken from the request being served (audit-scope.ts).
   */
  actor?: AuditPerson | null;
  /** The account the event concerns when it is not the actor's own (role changes, disabling…). */
  targetUser?: AuditPerson | null;
  /** What else it concerns, in words: a passkey's name, a setting's key, a satellite's name. */
  target?: string | null;
  /** Where from: the client address by the one rule (http/request-info.ts) and the User-Agent. */
  ipAddress?: string | null;
  userAgent?: string | null;
  /** Particulars; never a secret, a token or a code. */
  details?: Record<string, unknown> | null;
}

/**
 * The security event log every feature writes to. Recording never throws: a full disk must not
 * turn a sign-in into an error, so a failed write is logged instead.
 */
export function createAuditLog(deps: { db: Db; log: Logger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ feature: 'audit' });
  return {
    record(event: AuditInput): void {
      try {
        const origin = currentRequestOrigin();
        const actor = event.actor !== undefined ? event.actor : (origin?.actor ?? null);
        deps.db
          .insert(auditEvents)
          .values({
            at: new Date(now()),
            type: event.type,
            outcome: event.outcome ?? 'success',
            actorUserId: actor?.id ?? null,
            actorEmail: actor?.email ?? null,
            targetUserId: event.targetUser?.id ?? null,
            targetEmail: event.targetUser?.email ?? null,
            target: event.target?.slice(0, 200) ?? null,
            ipAddress: event.ipAddress !== undefined ? event.ipAddress : (origin?.ipAddress ?? null),
            userAgent:
              (event.userAgent !== undefined ? event.userAgent : origin?.userAgent)?.slice(0, 512) ?? null,
            details: event.details ? JSON.stringify(event.details) : null,
          })
          .run();
      } catch (err) {
        log.error({ err, type: event.type }, 'could not record a security event');
      }
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/** What other features need of the log: app.ts hands them this, so they import no more than a type. */
export interface AuditRecorder {
  record(event: AuditInput): void;
}
