import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@/lib/request';
import {
  REFUSAL_TEXT,
  activationErrorText,
  fallbackAfterDeactivation,
  graceBanner,
  keyFromFileText,
  limitRows,
  refusalReason,
  storeLinkFor,
  usageTotals,
} from './billing-logic';

const refusal = (status: number, reason: unknown) =>
  new ApiRequestError(status, 'Unprocessable', JSON.stringify({ message: 'refused', details: { reason } }));

describe('refusals of a licence key', () => {
  it.each(['malformed', 'bad-signature', 'another-hub', 'expired', 'not-yet-valid'] as const)(
    '%s is said in words',
    (reason) => {
      expect(refusalReason(refusal(422, reason))).toBe(reason);
      expect(activationErrorText(refusal(422, reason))).toBe(REFUSAL_TEXT[reason]);
    },
  );

  it('an unknown reason, a 500 or a non-JSON body falls back to the agent message', () => {
    expect(refusalReason(refusal(422, 'made-up'))).toBeNull();
    expect(activationErrorText(refusal(422, 'made-up'))).toBe('refused');
    expect(refusalReason(refusal(500, 'expired'))).toBeNull();
    expect(refusalReason(new ApiRequestError(400, 'Bad', '<html>'))).toBeNull();
  });

  it('a member is told an administrator is needed', () => {
    expect(activationErrorText(new ApiRequestError(403, 'Forbidden', '{"message":"Forbidden"}'))).toMatch(
      /administrator/,
    );
  });
});

describe('keyFromFileText', () => {
  it('drops whitespace and line breaks a licence file may carry', () => {
    expect(keyFromFileText('  NXL1.abc\n.def\r\n')).toBe('NXL1.abc.def');
  });
});

describe('storeLinkFor', () => {
  it('adds the plan to the store address, keeping its hub id', () => {
    expect(storeLinkFor('https://store.example/buy?hub=h-1', 'max')).toBe(
      'https://store.example/buy?hub=h-1&plan=max',
    );
  });
  it('offers nothing without a store, or for an address that is not a web page', () => {
    expect(storeLinkFor(null, 'pro')).toBeNull();
    expect(storeLinkFor('javascript:alert(1)', 'pro')).toBeNull();
  });
});

describe('graceBanner', () => {
  const licence = {
    lid: 'L1',
    plan: 'pro' as const,
    expiresAt: '2025-01-01T00:00:00.000Z',
    graceEndsAt: '2025-01-15T00:00:00.000Z',
    inGrace: true,
  };
  it('shows for a licence in grace, with both dates', () => {
    expect(graceBanner({ licence })).toEqual({
      expiredOn: new Date(licence.expiresAt),
      worksUntil: new Date(licence.graceEndsAt),
      plan: 'pro',
    });
  });
  it('does not show without a licence or outside grace', () => {
    expect(graceBanner({ licence: null })).toBeNull();
    expect(graceBanner({ licence: { ...licence, inGrace: false } })).toBeNull();
  });
});

describe('limitRows', () => {
  it('bars counted limits, amber from 80 %', () => {
    const rows = limitRows([
      { limit: 'aiMessages', used: 79, allowed: 100 },
      { limit: 'homeAssistantEntities', used: 40, allowed: 50 },
      { limit: 'maxModels', used: 3, allowed: 1 },
    ]);
    expect(rows.map((r) => (r.kind === 'bar' ? [r.percent, r.warning] : null))).toEqual([
      [79, false],
      [80, true],
      [100, true],
    ]);
  });
  it('shows unlimited and yes/no limits without a bar', () => {
    const rows = limitRows([
      { limit: 'aiMessages', used: 5, allowed: 'unlimited' },
      { limit: 'vpnAccess', used: null, allowed: false },
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['count', 'included']);
  });
});

describe('usage and fallback', () => {
  it('totals cloud and local messages', () => {
    expect(
      usageTotals([
        { date: '2025-01-01', cloudMessages: 2, localMessages: 3 },
        { date: '2025-01-02', cloudMessages: 1, localMessages: 0 },
      ]),
    ).toEqual({ cloud: 3, local: 3 });
  });
  it('deactivating returns to the trial while it runs, else Free', () => {
    const now = Date.parse('2025-01-10T00:00:00Z');
    expect(fallbackAfterDeactivation({ trialEndDate: '2025-01-12T00:00:00Z' }, now).plan).toBe('the trial');
    expect(fallbackAfterDeactivation({ trialEndDate: '2025-01-01T00:00:00Z' }, now)).toEqual({
      plan: 'Free',
      until: null,
    });
  });
});
