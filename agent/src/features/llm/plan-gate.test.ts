import { describe, expect, it } from 'vitest';
import { PLANS, type PlanId } from '../../contract/subscription.js';
import { HttpError } from '../../lib/http-error.js';
import { createPlanGate } from './plan-gate.js';

const source = (plan: PlanId, used: number) => ({
  status: () => ({ plan, limits: PLANS[plan].limits, usage: { aiMessages: used } }),
});

describe('plan gate', () => {
  it('reserves messages so concurrent chats cannot overshoot the Free plan’s monthly quota', () => {
    const gate = createPlanGate(source('free', 98), () => Date.UTC(2026, 10, 30, 23, 59, 0));
    const first = gate.reserveMessage().release;
    gate.reserveMessage();
    let refusal: unknown;
    try {
      gate.reserveMessage();
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    const http = refusal as HttpError;
    expect(http.status).toBe(429);
    expect(http.message).toBe(
      'This hub has used all 100 AI messages of the Free plan this month. Upgrade to Pro for unlimited messages.',
    );
    // One minute to the next month.
    expect(http.headers).toEqual({ 'Retry-After': '60' });
    first();
    first();
    expect(() => gate.reserveMessage()).not.toThrow();
  });

  it('has no quota on Pro, and allows cloud models there but not on Free', () => {
    const pro = createPlanGate(source('pro', 10_000));
    for (let i = 0; i < 5; i++) pro.reserveMessage();
    expect(pro.snapshot().allows('cloud')).toBe(true);
    const free = createPlanGate(source('free', 0)).reserveMessage();
    expect(free.allows('local')).toBe(true);
    expect(free.allows('cloud')).toBe(false);
    expect(free.refusal('cloud', 'gpt-4o', 'openai')).toMatchObject({ status: 403 });
  });

  it('limits how many models the hub keeps (limits.maxModels)', () => {
    expect(() => createPlanGate(source('free', 0)).checkModelCount(0)).not.toThrow();
    expect(() => createPlanGate(source('free', 0)).checkModelCount(1)).toThrow(/Free plan allows 1 model/);
    expect(() => createPlanGate(source('max', 0)).checkModelCount(500)).not.toThrow();
  });
});
