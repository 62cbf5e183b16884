import { describe, expect, it } from 'vitest';
import { NO_FILTERS, auditCsvUrl, auditSearch } from './audit';

describe('the audit query string', () => {
  it('leaves out empty filters', () => {
    expect(auditSearch(NO_FILTERS)).toBe('');
    expect(auditCsvUrl(NO_FILTERS)).toBe('/api/audit?format=csv');
  });

  it('carries every filter into the CSV link, encoded', () => {
    const url = auditCsvUrl({
      type: 'sign_in_failed',
      user: ' a+b@example.com ',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    const params = new URL(url, 'http://hub').searchParams;
    expect(Object.fromEntries(params)).toEqual({
      type: 'sign_in_failed',
      user: 'a+b@example.com',
      from: '2026-01-01',
      to: '2026-01-31',
      format: 'csv',
    });
  });
});
