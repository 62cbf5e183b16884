import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import {
  AUDIT_PAGE_MAX,
  auditQuerySchema,
  auditSummaryQuerySchema,
  type AuditList,
  type AuditSummary,
} from '../../contract/audit.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { AUDIT_CSV_HEADER, auditCsvRow, csvRow } from './audit-csv.js';
import { toAuditEvent, type AuditRepository } from './audit.repository.js';

/** `/api/audit`: the security event log, admins only (the console's /auth-dashboard). */
export function auditRoutes(repo: AuditRepository, now: () => number = Date.now) {
  return new Hono<AppEnv>()
    .use(requireAdmin)
    .get('/summary', validate('query', auditSummaryQuerySchema), (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(repo.summary(c.req.valid('query').days) satisfies AuditSummary);
    })
    .get('/', validate('query', auditQuerySchema), (c) => {
      c.header('Cache-Control', 'no-store');
      const { format, ...query } = c.req.valid('query');
      if (format === 'csv') {
        const stamp = new Date(now()).toISOString().slice(0, 10);
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="nexus-audit-${stamp}.csv"`);
        c.header('X-Content-Type-Options', 'nosniff');
        // Every matching row (`limit` does not apply), written page by page so a year of events
        // never sits in memory at once.
        return stream(c, async (out) => {
          await out.write(csvRow(AUDIT_CSV_HEADER));
          let before = query.before;
          for (;;) {
            const page = repo.list({ ...query, before, limit: AUDIT_PAGE_MAX });
            if (page.rows.length)
              await out.write(page.rows.map((r) => auditCsvRow(toAuditEvent(r))).join(''));
            if (!page.more) break;
            before = page.rows.at(-1)?.id;
          }
        });
      }
      const page = repo.list(query);
      return c.json({
        events: page.rows.map(toAuditEvent),
        nextBefore: page.more ? (page.rows.at(-1)?.id ?? null) : null,
      } satisfies AuditList);
    });
}
