import { describe, expect, it } from 'vitest';
import { SATELLITE_OFFLINE_AFTER_MS } from '../../contract/satellites.js';
import { satelliteStatus } from './satellites.service.js';

describe('satellite status', () => {
  const at = 1_000_000;
  it.each([
    ['never seen', { lastSeenAt: null, reportedStatus: null }, 'offline'],
    ['seen just now', { lastSeenAt: new Date(at - 1000), reportedStatus: 'online' as const }, 'online'],
    [
      'says it is degraded',
      { lastSeenAt: new Date(at - 1000), reportedStatus: 'degraded' as const },
      'degraded',
    ],
    [
      'silent for the limit',
      { lastSeenAt: new Date(at - SATELLITE_OFFLINE_AFTER_MS), reportedStatus: 'online' as const },
      'online',
    ],
    [
      'silent past the limit',
      { lastSeenAt: new Date(at - SATELLITE_OFFLINE_AFTER_MS - 1), reportedStatus: 'degraded' as const },
      'offline',
    ],
  ])('is right when %s', (_name, row, expected) => {
    expect(satelliteStatus(row, at)).toBe(expected);
  });
});
