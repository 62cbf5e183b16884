import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { auditListSchema, auditSummarySchema, type AuditEventType } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const AUDIT_API = '/api/audit';
export const AUDIT_SUMMARY_API = '/api/audit/summary';
export const AUDIT_PAGE_SIZE = 50;

/** The table's filters as the screen holds them; empty strings mean "any". */
export interface AuditFilters {
  type: AuditEventType | '';
  /** An account's id or e-mail. */
  user: string;
  /** yyyy-mm-dd (UTC day), both ends included. */
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { type: '', user: '', from: '', to: '' };

/** The query string of GET /api/audit for these filters (the table and the CSV link share it). */
export function auditSearch(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.type) params.set('type', filters.type);
  if (filters.user.trim()) params.set('user', filters.user.trim());
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The "Export CSV" link: every event matching the filters, as a download. */
export const auditCsvUrl = (filters: AuditFilters) =>
  `${AUDIT_API}${auditSearch(filters, { format: 'csv' })}`;

/** Keys joined with '/' are the paths they fetch (spec §7). */
export const auditKeys = {
  all: [AUDIT_API] as const,
  list: (filters: AuditFilters) => [AUDIT_API, filters] as const,
  summary: (days: number) => [AUDIT_SUMMARY_API, { days }] as const,
};

export const auditEventsQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(filters),
    initialPageParam: null as number | null,
    queryFn: async ({ pageParam }) =>
      auditListSchema.parse(
        await apiJson(
          'GET',
          `${AUDIT_API}${auditSearch(filters, {
            limit: String(AUDIT_PAGE_SIZE),
            ...(pageParam ? { before: String(pageParam) } : {}),
          })}`,
        ),
      ),
    getNextPageParam: (last) => last.nextBefore,
  });

export const auditSummaryQueryOptions = (days: number) =>
  queryOptions({
    queryKey: auditKeys.summary(days),
    queryFn: async () => auditSummarySchema.parse(await apiJson('GET', `${AUDIT_SUMMARY_API}?days=${days}`)),
  });
