import { describe, expect, it } from 'vitest';
import { planRoute, type RouteProvider } from './router.js';

const provider = (
  id: number,
  models: string[] | null,
  extra: Partial<RouteProvider> = {},
): RouteProvider => ({
  id,
  priority: id * 10,
  kind: 'ollama',
  models: models ? new Set(models) : null,
  active: 0,
  served: 0,
  ...extra,
});

describe('planRoute', () => {
  it('sends a named model to the providers that have it, by priority', () => {
    const plan = planRoute(
      { model: 'llama3.2' },
      [provider(2, ['llama3.2']), provider(1, ['qwen']), provider(3, ['llama3.2'])],
      null,
    );
    expect(plan).toEqual({
      ok: true,
      targets: [
        { providerId: 2, model: 'llama3.2' },
        { providerId: 3, model: 'llama3.2' },
      ],
    });
  });

  it('asks the first Ollama about a model nobody lists, so Ollama’s own "not found" comes back', () => {
    const plan = planRoute(
      { model: 'mistral' },
      [provider(1, ['qwen'], { kind: 'openai' }), provider(2, [])],
      null,
    );
    expect(plan).toEqual({ ok: true, targets: [{ providerId: 2, model: 'mistral' }] });
  });

  it('follows the rule’s order, keeps a target whose list is unknown, and appends its fallbacks', () => {
    const plan = planRoute(
      { model: 'llama3.2' },
      [provider(1, null), provider(2, ['llama3.2']), provider(3, ['gpt-4o'], { kind: 'openai' })],
      {
        enabled: true,
        strategy: 'failover',
        targets: [
          { providerId: 1, model: 'llama3.2' },
          { providerId: 2, model: 'llama3.2' },
          { providerId: 3, model: 'gpt-4o' },
        ],
      },
    );
    expect(plan.ok && plan.targets.map((t) => `${t.providerId}/${t.model}`)).toEqual([
      '1/llama3.2',
      '2/llama3.2',
      '3/gpt-4o',
    ]);
  });

  it('uses the rule alone when no model is named, and refuses without one', () => {
    const providers = [provider(1, ['a']), provider(2, ['b'])];
    const rule = { enabled: true, strategy: 'failover' as const, targets: [{ providerId: 2, model: 'b' }] };
    expect(planRoute({}, providers, rule)).toEqual({ ok: true, targets: [{ providerId: 2, model: 'b' }] });
    expect(planRoute({}, providers, null).ok).toBe(false);
    expect(planRoute({}, providers, { ...rule, enabled: false }).ok).toBe(false);
  });

  it('puts an explicit provider first and leaves out disabled ones (not in the list)', () => {
    const rule = {
      enabled: true,
      strategy: 'failover' as const,
      targets: [
        { providerId: 9, model: 'a' },
        { providerId: 1, model: 'a' },
      ],
    };
    const plan = planRoute({ model: 'a', providerId: 2 }, [provider(1, ['a']), provider(2, ['a'])], rule);
    expect(plan).toEqual({
      ok: true,
      targets: [
        { providerId: 2, model: 'a' },
        { providerId: 1, model: 'a' },
      ],
    });
    expect(planRoute({ model: 'a', providerId: 9 }, [provider(1, ['a'])], null).ok).toBe(false);
  });

  it('spreads: the least busy hub with the model goes first, the fallbacks stay last', () => {
    const rule = {
      enabled: true,
      strategy: 'spread' as const,
      targets: [
        { providerId: 1, model: 'llama' },
        { providerId: 2, model: 'llama' },
        { providerId: 3, model: 'gpt' },
      ],
    };
    const busyFirst = [
      provider(1, ['llama'], { active: 2 }),
      provider(2, ['llama'], { active: 1 }),
      provider(3, ['gpt'], { kind: 'openai' }),
    ];
    expect(planRoute({ model: 'llama' }, busyFirst, rule)).toEqual({
      ok: true,
      targets: [
        { providerId: 2, model: 'llama' },
        { providerId: 1, model: 'llama' },
        { providerId: 3, model: 'gpt' },
      ],
    });
    // Equally busy: the one that served fewer goes first.
    const tie = [
      provider(1, ['llama'], { served: 5 }),
      provider(2, ['llama'], { served: 4 }),
      provider(3, ['gpt']),
    ];
    expect(
      planRoute({ model: 'llama' }, tie, rule).ok && planRoute({ model: 'llama' }, tie, rule),
    ).toMatchObject({
      targets: [{ providerId: 2 }, { providerId: 1 }, { providerId: 3 }],
    });
  });
});
