import type { AuditEvent } from '../../contract/audit.js';

export const AUDIT_CSV_HEADER = [
  'id',
  'at',
  'type',
  'outcome',
  'actor_id',
  'actor_email',
  'target_user_id',
  'target_user_email',
  'target',
  'ip_address',
  'user_agent',
  'details',
] as const;

/**
 * One CSV cell (RFC 4180): always quoted, quotes doubled. A cell a spreadsheet would read as a
 * formula (= + - @, or a leading tab or carriage return) gets a leading apostrophe: an e-mail
 * tried at sign-in or a User-Agent is whatever a stranger typed (OWASP "CSV injection").
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function auditCsvRow(event: AuditEvent): string {
  return csvRow([
    event.id,
    event.at,
    event.type,
    event.outcome,
    event.actor.id,
    event.actor.email,
    event.targetUser?.id,
    event.targetUser?.email,
    event.target,
    event.ipAddress,
    event.userAgent,
    event.details ? JSON.stringify(event.details) : null,
  ]);
}
