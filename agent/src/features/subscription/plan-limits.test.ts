import { describe, expect, it } from 'vitest';
import type { PlanId } from '../../contract/subscription.js';
import { HttpError } from '../../lib/http-error.js';
import { createPlanLimits } from './plan-limits.js';

function setup(opts: { plan?: PlanId; cloud?: number; maxQueue?: number } = {}) {
  const state = { plan: opts.plan ?? 'free', cloud: opts.cloud ?? 0, ledger: [] as string[] };
  const limits = createPlanLimits({
    plan: () => state.plan,
    cloudMessagesInMonth: () => state.cloud,
    messagesByDayAndClass: () => [
      { day: '2026-11-29', modelClass: 'cloud', messages: 3 },
      { day: '2026-11-29', modelClass: 'local', messages: 5 },
      { day: '2026-11-30', modelClass: 'local', messages: 2 },
    ],
    entityLedger: { get: () => state.ledger, set: (ids) => (state.ledger = ids) },
    countInstalledModels: async () => 1,
    now: () => Date.UTC(2026, 10, 30, 23, 59, 0),
    maxQueue: opts.maxQueue,
  });
  return { limits, state };
}

function refusalOf(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('not refused');
}

describe('plan limits: aiMessages (cloud messages per month)', () => {
  it('allows the 100th cloud message on Free and refuses the 101st with 429, the limit, the use and Pro', () => {
    const { limits, state } = setup({ cloud: 99 });
    const last = limits.reserveCloudMessage();
    // A reservation counts: a burst cannot overshoot.
    const refused = refusalOf(() => limits.reserveCloudMessage());
    expect(refused.status).toBe(429);
    expect(refused.details).toEqual({
      limit: 'aiMessages',
      used: 99,
      allowed: 100,
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect(refused.message).toMatch(/all 100 cloud AI messages of the Free plan.*Upgrade to Pro/);
    expect(refused.headers).toEqual({ 'Retry-After': '60' });
    last.release();
    last.release();
    state.cloud = 100;
    expect(refusalOf(() => limits.reserveCloudMessage()).status).toBe(429);
    state.plan = 'pro';
    expect(() => limits.reserveCloudMessage()).not.toThrow();
  });

  it('never limits local models on any plan', () => {
    const { limits } = setup({ cloud: 10_000 });
    expect(limits.allowsClass('local')).toBe(true);
    expect(limits.allowsClass('cloud')).toBe(true);
  });
});

describe('plan limits: maxModels', () => {
  const models = [
    { providerId: 1, name: 'qwen2.5:7b', modifiedAt: '2026-02-01T00:00:00Z' },
    { providerId: 1, name: 'llama3.2:3b', modifiedAt: '2026-01-01T00:00:00Z' },
    { providerId: 2, name: 'phi3:mini', modifiedAt: '2025-01-01T00:00:00Z' },
  ];

  it('keeps the oldest installed model usable on Free and the rest read-only; all on Max', () => {
    const { limits, state } = setup();
    const usable = limits.usableModels(models);
    expect(usable(1, 'llama3.2:3b')).toBe(true);
    expect(usable(1, 'qwen2.5:7b')).toBe(false);
    expect(usable(2, 'phi3:mini')).toBe(false);
    const refused = limits.modelRefusal('qwen2.5:7b', 3);
    expect(refused.status).toBe(403);
    expect(refused.details).toEqual({
      limit: 'maxModels',
      used: 3,
      allowed: 1,
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect(refused.message).toMatch(/read-only.*Upgrade to Pro/);
    state.plan = 'max';
    expect(limits.usableModels(models)(2, 'phi3:mini')).toBe(true);
  });

  it('allows a pull up to the allowance and refuses the first past it (Pro → Max)', () => {
    const { limits, state } = setup();
    expect(() => limits.checkModelCount(0)).not.toThrow();
    expect(refusalOf(() => limits.checkModelCount(1)).details).toMatchObject({ allowed: 1, used: 1 });
    state.plan = 'pro';
    expect(() => limits.checkModelCount(4)).not.toThrow();
    expect(refusalOf(() => limits.checkModelCount(5)).details).toMatchObject({ upgradeTo: 'max' });
  });
});

describe('plan limits: homeAssistantEntities', () => {
  const entity = (i: number) => `light.lamp_${i}`;

  it('lets automations act on the first 50 entities they use on Free, refuses the 51st, allows it on Pro', () => {
    const { limits, state } = setup();
    for (let i = 1; i <= 50; i++) limits.checkEntities([entity(i)]);
    // Used again: still allowed, the ledger does not grow.
    limits.checkEntities([entity(1), entity(50)]);
    const refused = refusalOf(() => limits.checkEntities([entity(51)]));
    expect(refused.status).toBe(403);
    expect(refused.details).toEqual({
      limit: 'homeAssistantEntities',
      used: 50,
      allowed: 50,
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect(refused.message).toMatch(/light\.lamp_51.*device screens.*Upgrade to Pro/);
    expect(limits.entityAllowed(entity(50))).toBe(true);
    expect(limits.entityAllowed(entity(51))).toBe(false);
    state.plan = 'pro';
    limits.checkEntities([entity(51)]);
    // Back on Free: the first 50 stay the same 50.
    state.plan = 'free';
    expect(() => limits.checkEntities([entity(2)])).not.toThrow();
    expect(refusalOf(() => limits.checkEntities([entity(51)])).status).toBe(403);
    expect(state.ledger.length).toBe(51);
  });
});

describe('plan limits: vpnAccess', () => {
  it('refuses VPN failover on Free with 403 and allows it on Pro', () => {
    const { limits, state } = setup();
    const refused = refusalOf(() => limits.checkVpnFailover());
    expect(refused.status).toBe(403);
    expect(refused.details).toEqual({
      limit: 'vpnAccess',
      used: null,
      allowed: false,
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect(refused.message).toMatch(/WireGuard remote access keeps working/);
    state.plan = 'pro';
    expect(() => limits.checkVpnFailover()).not.toThrow();
  });
});

describe('plan limits: parallelProcessing (the cloud queue)', () => {
  it('on Free: one at a time, first in first out, with positions; a cancelled waiter leaves', async () => {
    const { limits } = setup();
    const first = await limits.cloudTurn();
    const seen: Record<string, number[]> = { b: [], c: [], d: [] };
    const order: string[] = [];
    const b = limits.cloudTurn({ onQueued: (p) => seen.b!.push(p) }).then((r) => (order.push('b'), r));
    const cancel = new AbortController();
    const c = limits.cloudTurn({ signal: cancel.signal, onQueued: (p) => seen.c!.push(p) });
    const d = limits.cloudTurn({ onQueued: (p) => seen.d!.push(p) }).then((r) => (order.push('d'), r));
    expect(limits.cloudQueueLength()).toBe(3);
    cancel.abort();
    await expect(c).rejects.toThrow();
    expect(seen.d).toEqual([3, 2]);
    first();
    first(); // idempotent: does not let two in
    const releaseB = await b;
    expect(limits.cloudQueueLength()).toBe(1);
    expect(seen.d).toEqual([3, 2, 1]);
    releaseB();
    (await d)();
    expect(order).toEqual(['b', 'd']);
    expect(seen.b).toEqual([1]);
    // Nothing held: the next goes at once.
    (await limits.cloudTurn())();
  });

  it('refuses past the queue bound with 429', async () => {
    const { limits } = setup({ maxQueue: 2 });
    const held = await limits.cloudTurn();
    const waiters = [limits.cloudTurn(), limits.cloudTurn()];
    await expect(limits.cloudTurn()).rejects.toMatchObject({
      status: 429,
      details: { limit: 'parallelProcessing', plan: 'free', upgradeTo: 'pro' },
    });
    held();
    for (const w of waiters) (await w)();
  });

  it('on Pro everything goes at once', async () => {
    const { limits } = setup({ plan: 'pro' });
    const all = await Promise.all([limits.cloudTurn(), limits.cloudTurn(), limits.cloudTurn()]);
    expect(limits.cloudQueueLength()).toBe(0);
    all.forEach((r) => r());
  });
});

describe('plan limits: warnings and usage', () => {
  it('warns at 80 % of the allowance (80 of 100 cloud messages, 40 of 50 entities), not below', () => {
    const { limits, state } = setup({ cloud: 79 });
    expect(limits.warnings('free')).toEqual([]);
    state.cloud = 80;
    for (let i = 0; i < 40; i++) limits.checkEntities([`switch.s${i}`]);
    limits.checkModelCount(1 - 1);
    expect(limits.warnings('free')).toEqual([
      { limit: 'aiMessages', used: 80, allowed: 100, upgradeTo: 'pro' },
      { limit: 'homeAssistantEntities', used: 40, allowed: 50, upgradeTo: 'pro' },
    ]);
    limits.usableModels([{ providerId: 1, name: 'a', modifiedAt: null }]);
    expect(limits.warnings('free').map((w) => w.limit)).toContain('maxModels');
    expect(limits.warnings('pro')).toEqual([]);
  });

  it('reports per day cloud vs local messages and this month against each limit', async () => {
    const { limits } = setup({ cloud: 42 });
    const usage = await limits.usage(3);
    expect(usage.days).toEqual([
      { date: '2026-11-28', cloudMessages: 0, localMessages: 0 },
      { date: '2026-11-29', cloudMessages: 3, localMessages: 5 },
      { date: '2026-11-30', cloudMessages: 0, localMessages: 2 },
    ]);
    expect(usage.limits).toEqual([
      { limit: 'aiMessages', used: 42, allowed: 100 },
      { limit: 'maxModels', used: 1, allowed: 1 },
      { limit: 'homeAssistantEntities', used: 0, allowed: 50 },
      { limit: 'parallelProcessing', used: null, allowed: false },
      { limit: 'vpnAccess', used: null, allowed: false },
    ]);
  });
});
