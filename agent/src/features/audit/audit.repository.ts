import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  AUDIT_RETENTION_DAYS,
  FACTOR_CHANGE_EVENT_TYPES,
  type AuditEvent,
  type AuditQuery,
  type AuditSummary,
} from '../../contract/audit.js';
import type { Db } from '../../db/client.js';
import { auditEvents, type AuditEventRow } from './audit.table.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  let details: Record<string, unknown> | null = null;
  if (row.details) {
    try {
      details = JSON.parse(row.details) as Record<string, unknown>;
    } catch {
      details = null;
    }
  }
  return {
    id: row.id,
    at: row.at.toISOString(),
    type: row.type,
    outcome: row.outcome,
    actor: { id: row.actorUserId, email: row.actorEmail },
    targetUser:
      row.targetUserId !== null || row.targetEmail !== null
        ? { id: row.targetUserId, email: row.targetEmail }
        : null,
    target: row.target,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    details,
  };
}

/** A bare date `to` (2026-01-31) means through the end of that day; a time means that instant. */
function toBound(to: string): Date {
  const at = new Date(to);
  return /^\d{4}-\d{2}-\d{2}$/.test(to) ? new Date(at.getTime() + DAY_MS) : at;
}

function filterOf(query: Omit<AuditQuery, 'limit' | 'format'>): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.type?.length) where.push(inArray(auditEvents.type, query.type));
  if (query.user) {
    // An id or an e-mail, as the one who acted or the account concerned.
    const user = query.user;
    if (/^\d{1,15}$/.test(user)) {
      const id = Number(user);
      where.push(or(eq(auditEvents.actorUserId, id), eq(auditEvents.targetUserId, id)));
    } else {
      const email = user.toLowerCase();
      where.push(
        or(
          sql`lower(${auditEvents.actorEmail}) = ${email}`,
          sql`lower(${auditEvents.targetEmail}) = ${email}`,
          // A failed sign-in for an unknown or mistyped account keeps the e-mail tried in details.
          sql`lower(json_extract(${auditEvents.details}, '$.email')) = ${email}`,
        ),
      );
    }
  }
  if (query.from) where.push(gte(auditEvents.at, new Date(query.from)));
  if (query.to) where.push(lt(auditEvents.at, toBound(query.to)));
  if (query.before) where.push(lt(auditEvents.id, query.before));
  return where.length ? and(...where) : undefined;
}

export function createAuditRepository(db: Db, now: () => number = Date.now) {
  return {
    /** Newest first; ids grow with time, so `before` (an id) pages without gaps or repeats. */
    list(query: Omit<AuditQuery, 'format'>): { rows: AuditEventRow[]; more: boolean } {
      const rows = db
        .select()
        .from(auditEvents)
        .where(filterOf(query))
        .orderBy(desc(auditEvents.id))
        .limit(query.limit + 1)
        .all();
      return { rows: rows.slice(0, query.limit), more: rows.length > query.limit };
    },

    summary(days: number): AuditSummary {
      const end = now();
      // Whole UTC days: today and the days - 1 before it.
      const today = Math.floor(end / DAY_MS) * DAY_MS;
      const start = today - (days - 1) * DAY_MS;
      const inPeriod = gte(auditEvents.at, new Date(start));
      const day = sql<string>`strftime('%Y-%m-%d', ${auditEvents.at} / 1000, 'unixepoch')`;
      const isSuccess = sql`${auditEvents.type} in ('sign_in', 'passkey_sign_in') and ${auditEvents.outcome} = 'success'`;
      const isFailure = sql`(${auditEvents.type} = 'sign_in_failed' or (${auditEvents.type} = 'passkey_sign_in' and ${auditEvents.outcome} = 'failure'))`;
      const perDay = db
        .select({
          date: day,
          success: sql<number>`sum(case when ${isSuccess} then 1 else 0 end)`,
          failure: sql<number>`sum(case when ${isFailure} then 1 else 0 end)`,
        })
        .from(auditEvents)
        .where(and(inPeriod, inArray(auditEvents.type, ['sign_in', 'sign_in_failed', 'passkey_sign_in'])))
        .groupBy(day)
        .all();
      const byDate = new Map(perDay.map((d) => [d.date, d]));
      const signInsPerDay = Array.from({ length: days }, (_, i) => {
        const date = new Date(start + i * DAY_MS).toISOString().slice(0, 10);
        const found = byDate.get(date);
        return { date, success: Number(found?.success ?? 0), failure: Number(found?.failure ?? 0) };
      });

      const countsByType: Record<string, number> = {};
      for (const row of db
        .select({ type: auditEvents.type, n: count() })
        .from(auditEvents)
        .where(inPeriod)
        .groupBy(auditEvents.type)
        .all()) {
        countsByType[row.type] = row.n;
      }

      const failed = or(
        inArray(auditEvents.type, ['sign_in_failed', 'sign_in_throttled']),
        and(eq(auditEvents.type, 'passkey_sign_in'), eq(auditEvents.outcome, 'failure')),
      );
      const failuresByAddress = db
        .select({ ipAddress: auditEvents.ipAddress, count: count() })
        .from(auditEvents)
        .where(and(inPeriod, failed, sql`${auditEvents.ipAddress} is not null`))
        .groupBy(auditEvents.ipAddress)
        .orderBy(desc(count()))
        .limit(10)
        .all()
        .map((r) => ({ ipAddress: r.ipAddress ?? '', count: r.count }));

      return {
        days,
        from: new Date(start).toISOString(),
        to: new Date(end).toISOString(),
        signInsPerDay,
        totals: {
          signIns: signInsPerDay.reduce((n, d) => n + d.success, 0),
          failures: signInsPerDay.reduce((n, d) => n + d.failure, 0),
          throttled: countsByType.sign_in_throttled ?? 0,
          factorChanges: FACTOR_CHANGE_EVENT_TYPES.reduce((n, t) => n + (countsByType[t] ?? 0), 0),
        },
        countsByType,
        failuresByAddress,
      };
    },

    /** Deletes rows older than the retention period; returns how many went. */
    prune(): number {
      const cutoff = new Date(now() - AUDIT_RETENTION_DAYS * DAY_MS);
      return db.delete(auditEvents).where(lt(auditEvents.at, cutoff)).run().changes;
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
