import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  chooseEndpoint,
  planRoute,
  type EndpointCandidate,
  type RouteProvider,
} from './router.js';

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

const ep = (
  id: string,
  models: string[] | null,
  extra: Partial<EndpointCandidate> = {},
): EndpointCandidate => ({
  id,
  outstanding: 0,
  retryAt: 0,
  models: models ? new Set(models) : null,
  ...extra,
});
const none = new Set<string>();

describe('chooseEndpoint', () => {
  it('sends the chat to the endpoint with the fewest outstanding requests that has the model', () => {
    const eps = [
      ep('a', ['llama'], { outstanding: 2 }),
      ep('b', ['llama'], { outstanding: 1 }),
      ep('c', ['qwen']),
    ];
    expect(chooseEndpoint(eps, 'llama', 1000, none, 0)?.id).toBe('b');
    expect(chooseEndpoint(eps, 'qwen', 1000, none, 0)?.id).toBe('c');
  });

  it('breaks ties in turn (round robin)', () => {
    const eps = [ep('a', ['llama']), ep('b', ['llama']), ep('c', ['llama'])];
    expect([0, 1, 2, 3].map((turn) => chooseEndpoint(eps, 'llama', 0, none, turn)?.id)).toEqual([
      'a',
      'b',
      'c',
      'a',
    ]);
  });

  it('skips an endpoint backing off, and those already tried for this chat', () => {
    const eps = [ep('a', ['llama'], { retryAt: 5000 }), ep('b', ['llama'], { outstanding: 9 })];
    expect(chooseEndpoint(eps, 'llama', 1000, none, 0)?.id).toBe('b');
    // Back after its rest.
    expect(chooseEndpoint(eps, 'llama', 5000, none, 0)?.id).toBe('a');
    expect(chooseEndpoint(eps, 'llama', 5000, new Set(['a']), 0)?.id).toBe('b');
    expect(chooseEndpoint(eps, 'llama', 5000, new Set(['a', 'b']), 0)).toBeNull();
  });

  it('when every candidate rests, tries the one due first rather than failing', () => {
    const eps = [ep('a', ['llama'], { retryAt: 9000 }), ep('b', ['llama'], { retryAt: 7000 })];
    expect(chooseEndpoint(eps, 'llama', 1000, none, 0)?.id).toBe('b');
  });

  it('prefers endpoints that list the model over those whose list is unknown; a model nobody lists still goes somewhere', () => {
    const eps = [ep('a', null), ep('b', ['llama'], { outstanding: 3 }), ep('c', ['qwen'])];
    expect(chooseEndpoint(eps, 'llama', 0, none, 0)?.id).toBe('b');
    expect(chooseEndpoint(eps, 'llama', 0, new Set(['b']), 0)?.id).toBe('a');
    // Nobody has it: Ollama's own "not found" should come back from somewhere.
    expect(chooseEndpoint([ep('c', ['qwen'])], 'mistral', 0, none, 0)?.id).toBe('c');
  });
});

describe('backoffMs', () => {
  it('rests 5 s, doubling per failure in a row, at most 60 s', () => {
    expect([1, 2, 3, 4, 5, 6].map(backoffMs)).toEqual([5000, 10000, 20000, 40000, 60000, 60000]);
  });
});
