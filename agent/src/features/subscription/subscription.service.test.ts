import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { PLANS } from '../../contract/subscription.js';
import { createSubscriptionRepository } from './subscription.repository.js';
import { createSubscriptionService } from './subscription.service.js';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 0, 20, 12);

let dir: string;
let handle: DbHandle;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-sub-'));
  handle = openDatabase(dir);
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function setup(messages = 0) {
  let clock = START;
  const repository = createSubscriptionRepository(handle.db);
  const service = createSubscriptionService({
    repository,
    usage: { messagesInMonth: () => messages },
    hubId: () => 'testhub',
    now: () => clock,
  });
  return { service, repository, advance: (ms: number) => (clock += ms) };
}

describe('subscription', () => {
  it('starts a 14-day Pro trial at the hub’s first start', () => {
    const { service } = setup(3);
    service.ensureStarted();
    expect(service.status()).toEqual({
      plan: 'pro',
      status: 'trialing',
      trialEndDate: new Date(START + 14 * DAY).toISOString(),
      usage: { aiMessages: 3, remainingMessages: 'unlimited' },
      limits: PLANS.pro.limits,
      periodStart: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      hubId: 'testhub',
      licence: null,
      warnings: [],
      storeUrl: null,
    });
  });

  it('does not restart the trial on a later start', () => {
    const first = setup();
    first.service.ensureStarted();
    first.advance(5 * DAY);
    const again = createSubscriptionService({
      repository: createSubscriptionRepository(handle.db),
      usage: { messagesInMonth: () => 0 },
      hubId: () => 'testhub',
      now: () => START + 5 * DAY,
    });
    again.ensureStarted();
    expect(again.status().trialEndDate).toBe(new Date(START + 14 * DAY).toISOString());
  });

  it('expires to the free plan after the trial, counting the free plan’s messages down', () => {
    const { service, advance } = setup(30);
    service.ensureStarted();
    advance(14 * DAY);
    expect(service.status()).toMatchObject({
      plan: 'free',
      status: 'expired',
      usage: { aiMessages: 30, remainingMessages: 70 },
      limits: PLANS.free.limits,
    });
  });

  it('never shows a negative remainder', () => {
    const { service, advance } = setup(250);
    service.ensureStarted();
    advance(20 * DAY);
    expect(service.status().usage.remainingMessages).toBe(0);
  });

  it('is active on a paid plan until it is paid for', () => {
    const { service, repository, advance } = setup();
    service.ensureStarted();
    repository.setPaidPlan('max', new Date(START + 40 * DAY), new Date(START));
    expect(service.status()).toMatchObject({ plan: 'max', status: 'active' });
    advance(41 * DAY);
    expect(service.status()).toMatchObject({ plan: 'free', status: 'expired' });
  });
});
