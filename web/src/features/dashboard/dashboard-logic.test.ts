import { describe, expect, it } from 'vitest';
import {
  coreServices,
  formatAgo,
  formatUptime,
  haResponseTimeTone,
  isVpnLatencyFlagged,
  meanAbsoluteSignal,
  modelPreview,
  networkProtection,
  overallHealth,
  requestCount,
  satelliteCardStatus,
  signalBadgeVariant,
  trialBanner,
  usagePercent,
  usageWarning,
} from './dashboard-logic';

const s = (status: string) => ({ status });

describe('overallHealth (spec §4)', () => {
  it.each([
    [s('online'), s('online'), 'Healthy'],
    [s('online'), s('offline'), 'Degraded'],
    [s('online'), s('degraded'), 'Degraded'],
    [s('online'), s('not_configured'), 'Degraded'],
    [s('degraded'), s('online'), 'Degraded'],
    [undefined, s('online'), 'Degraded'],
    [s('online'), undefined, 'Degraded'],
    [undefined, undefined, 'Degraded'],
  ])('nexus %o and HA %o → %s', (nexus, ha, expected) => {
    expect(overallHealth(nexus, ha)).toBe(expected);
  });
});

describe('coreServices (spec §4: out of 3)', () => {
  it.each([
    [s('online'), s('online'), s('running'), 3],
    [s('online'), s('online'), s('degraded'), 2],
    [s('online'), s('offline'), s('running'), 2],
    [s('degraded'), s('online'), s('running'), 2],
    [s('online'), s('not_configured'), s('offline'), 1],
    // "online" is not "running": each service has its own good word.
    [s('running'), s('running'), s('online'), 0],
    [undefined, undefined, undefined, 0],
  ])('nexus %o, HA %o, LLM %o → %i/3', (nexus, ha, llm, up) => {
    const result = coreServices(nexus, ha, llm);
    expect(result.up).toBe(up);
    expect(result.total).toBe(3);
    expect(result.services.map((x) => x.name)).toEqual(['Nexus', 'Home Assistant', 'LLM pipeline']);
  });
});

describe('networkProtection (spec §4)', () => {
  it.each([
    [s('connected'), 'Protected'],
    [s('disconnected'), 'Local Only'],
    [undefined, 'Local Only'],
  ])('%o → %s', (vpn, expected) => {
    expect(networkProtection(vpn)).toBe(expected);
  });
});

describe('satelliteCardStatus (issue 21: the badge agrees with "n of m online")', () => {
  it.each([
    [[{ status: 'online' }], 'Active'],
    [[{ status: 'offline' }, { status: 'degraded' }], 'Active'],
    // A device that exists but does not answer is not "Active" (the card says "0 of 1 online").
    [[{ status: 'offline' }], 'Offline'],
    [[{ status: 'offline' }, { status: 'offline' }], 'Offline'],
    [[], 'Offline'],
    [undefined, 'Offline'],
  ])('%o → %s', (devices, expected) => {
    expect(satelliteCardStatus(devices)).toBe(expected);
  });
});

describe('requestCount (spec §4, §9 fallback 142)', () => {
  it.each([
    [{ totalRequests: 7 }, 7],
    [{ totalRequests: 0 }, 0],
    [{ totalRequests: null }, 142],
    [{}, 142],
    [{ totalRequests: Number.NaN }, 142],
    [undefined, 142],
  ])('%o → %i', (llm, expected) => {
    expect(requestCount(llm)).toBe(expected);
  });
});

describe('haResponseTimeTone (spec §9)', () => {
  it.each([
    [0, 'good'],
    [199, 'good'],
    [199.9, 'good'],
    [200, 'secondary'],
    [499, 'secondary'],
    [500, 'bad'],
    [5_000, 'bad'],
  ] as const)('%d ms → %s', (ms, tone) => {
    expect(haResponseTimeTone(ms)).toBe(tone);
  });
});

describe('isVpnLatencyFlagged (spec §9: above 100 ms)', () => {
  it.each([
    [20, false],
    [100, false],
    [100.1, true],
    [250, true],
    [null, false],
    [undefined, false],
  ])('%s ms → %s', (ms, flagged) => {
    expect(isVpnLatencyFlagged(ms)).toBe(flagged);
  });
});

describe('signal badge (spec §9: default below a mean |dBm| of 60)', () => {
  const sat = (signalStrength: number | null) => ({ signalStrength });
  it.each([
    [[sat(-40)], 40, 'default'],
    [[sat(-59)], 59, 'default'],
    [[sat(-59.9)], 59.9, 'default'],
    [[sat(-60)], 60, 'destructive'],
    [[sat(-75)], 75, 'destructive'],
    [[sat(-40), sat(-70)], 55, 'default'],
    [[sat(-50), sat(-80)], 65, 'destructive'],
    // Satellites that never reported a signal do not pull the mean either way.
    [[sat(-50), sat(null)], 50, 'default'],
  ] as const)('%o → mean %d → %s', (devices, mean, variant) => {
    const computed = meanAbsoluteSignal(devices);
    expect(computed).toBeCloseTo(mean, 6);
    expect(signalBadgeVariant(computed!)).toBe(variant);
  });

  it('has no mean without readings', () => {
    expect(meanAbsoluteSignal([])).toBeNull();
    expect(meanAbsoluteSignal([sat(null)])).toBeNull();
    expect(meanAbsoluteSignal(undefined)).toBeNull();
  });
});

describe('modelPreview (spec §9: first 3, then +N more)', () => {
  it.each([
    [[], [], null],
    [['a'], ['a'], null],
    [['a', 'b', 'c'], ['a', 'b', 'c'], null],
    [['a', 'b', 'c', 'd'], ['a', 'b', 'c'], '+1 more'],
    [['a', 'b', 'c', 'd', 'e', 'f', 'g'], ['a', 'b', 'c'], '+4 more'],
  ])('%o → %o %s', (models, shown, label) => {
    const preview = modelPreview(models);
    expect(preview.shown).toEqual(shown);
    expect(preview.moreLabel).toBe(label);
    expect(preview.more).toBe(models.length - shown.length);
  });
});

describe('usageWarning (spec §9: free plan above 80 %)', () => {
  const sub = (plan: string, used: number, limit: number | 'unlimited') => ({
    plan,
    status: 'active',
    trialEndDate: '2030-01-01T00:00:00.000Z',
    usage: { aiMessages: used },
    limits: { aiMessages: limit },
  });
  it.each([
    [sub('free', 0, 100), null],
    [sub('free', 80, 100), null],
    [sub('free', 81, 100), { used: 81, limit: 100, percent: 81 }],
    [sub('free', 100, 100), { used: 100, limit: 100, percent: 100 }],
    [sub('free', 130, 100), { used: 130, limit: 100, percent: 130 }],
    [sub('pro', 95, 100), null],
    [sub('max', 1_000, 'unlimited'), null],
    [sub('free', 5, 'unlimited'), null],
    [undefined, null],
  ])('%o → %o', (subscription, expected) => {
    expect(usageWarning(subscription)).toEqual(expected);
  });

  it('computes the usage bar only for a numeric limit', () => {
    expect(usagePercent(sub('free', 25, 100))).toBe(25);
    expect(usagePercent(sub('free', 250, 100))).toBe(100);
    expect(usagePercent(sub('pro', 25, 'unlimited'))).toBeNull();
  });
});

describe('trialBanner (spec §4)', () => {
  const base = {
    plan: 'pro',
    trialEndDate: '2030-05-17T12:00:00.000Z',
    usage: { aiMessages: 0 },
    limits: { aiMessages: 'unlimited' as const },
  };
  it.each([
    ['trialing', true],
    ['active', false],
    ['expired', false],
  ])('%s → banner %s', (status, shown) => {
    const banner = trialBanner({ ...base, status });
    expect(banner !== null).toBe(shown);
    if (banner) expect(banner.endDate.toISOString()).toBe('2030-05-17T12:00:00.000Z');
  });

  it('shows nothing for an end date it cannot read', () => {
    expect(trialBanner({ ...base, status: 'trialing', trialEndDate: 'soon' })).toBeNull();
  });
});

describe('formatting', () => {
  it.each([
    [0, '0s'],
    [59, '59s'],
    [60, '1m'],
    [3_599, '59m'],
    [3_600, '1h 0m'],
    [86_399, '23h 59m'],
    [86_400, '1d 0h 0m'],
    [3 * 86_400 + 4 * 3_600 + 12 * 60 + 9, '3d 4h 12m'],
  ])('uptime %i s → %s', (seconds, text) => {
    expect(formatUptime(seconds)).toBe(text);
  });

  it.each([
    [null, 'never'],
    ['garbage', 'unknown'],
    ['2030-01-01T00:00:00.000Z', 'just now'],
    ['2029-12-31T23:59:30.000Z', '30s ago'],
    ['2029-12-31T23:57:00.000Z', '3 min ago'],
    ['2029-12-31T21:00:00.000Z', '3 h ago'],
    ['2029-12-29T00:00:00.000Z', '3 d ago'],
  ])('last seen %s → %s', (iso, text) => {
    expect(formatAgo(iso, Date.parse('2030-01-01T00:00:00.000Z'))).toBe(text);
  });
});
