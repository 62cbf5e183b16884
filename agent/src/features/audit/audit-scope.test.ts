import { executionAsyncId } from 'node:async_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../http/app-env.js';
import { auditRequestScope, currentRequestOrigin, type RequestOrigin } from './audit-scope.js';

/** A gate a test opens when it wants: lets two requests overlap in a chosen order. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Whether promise hooks are on: with them, each continuation runs under its own async id. */
async function hooksOn(): Promise<boolean> {
  await null;
  const first = executionAsyncId();
  await null;
  return executionAsyncId() !== first;
}

/**
 * An API with the audit scope (trusting X-Forwarded-For, so each request names its own address)
 * whose routes record what currentRequestOrigin() says at the moment an event is recorded.
 */
function api() {
  const recorded: Record<string, RequestOrigin | null> = {};
  const waits = new Map<string, Promise<void>>();
  const background: Promise<void>[] = [];
  const app = new Hono<AppEnv>()
    .use('*', async (c, next) => {
      const email = c.req.header('x-user');
      if (email) c.set('user', { id: email.length, email } as AppEnv['Variables']['user']);
      await next();
    })
    .use('*', auditRequestScope(true))
    // Records after its gate opens, having crossed a timer, a promise chain and an I/O-like wait.
    .get('/held/:name', async (c) => {
      const name = c.req.param('name');
      await waits.get(name);
      await delay(1);
      await Promise.resolve().then(() => null);
      recorded[name] = currentRequestOrigin();
      return c.json({ hooks: await hooksOn() });
    })
    // Answers at once and records later, after its gate opens: work that outlives the request.
    .get('/after/:name', (c) => {
      const name = c.req.param('name');
      background.push(
        (async () => {
          await waits.get(name);
          await delay(1);
          recorded[name] = currentRequestOrigin();
        })(),
      );
      return c.json({});
    });
  const get = (path: string, ip: string, user?: string) =>
    app.request(path, {
      headers: { 'x-forwarded-for': ip, 'user-agent': `agent ${ip}`, ...(user ? { 'x-user': user } : {}) },
    });
  return { recorded, waits, background, get };
}

describe('audit request scope', () => {
  it('gives every request its own origin across awaits, while others start and end around it', async () => {
    const { recorded, waits, get } = api();
    const a = gate();
    waits.set('a', a.opened);
    const first = get('/held/a', '127.0.0.11', 'ann@example.org');
    // b starts and is answered while a waits: a is still in flight, so the scope stays on for it.
    expect((await get('/held/b', '127.0.0.12')).status).toBe(200);
    a.open();
    expect(await (await first).json()).toEqual({ hooks: true });
    // Nothing in flight now: the scope is off; the next request switches it on again.
    expect(await hooksOn()).toBe(false);
    expect((await get('/held/c', '127.0.0.13', 'cy@example.org')).status).toBe(200);
    expect(await hooksOn()).toBe(false);

    expect(recorded).toEqual({
      a: {
        actor: { id: 15, email: 'ann@example.org' },
        ipAddress: '127.0.0.11',
        userAgent: 'agent 127.0.0.11',
      },
      b: { actor: null, ipAddress: '127.0.0.12', userAgent: 'agent 127.0.0.12' },
      c: {
        actor: { id: 14, email: 'cy@example.org' },
        ipAddress: '127.0.0.13',
        userAgent: 'agent 127.0.0.13',
      },
    });
  });

  it("ends the origin with the answer: later work records none, never another request's", async () => {
    const { recorded, waits, background, get } = api();
    const late = gate();
    waits.set('late', late.opened);
    const held = gate();
    waits.set('held', held.opened);
    expect((await get('/after/late', '127.0.0.21', 'ann@example.org')).status).toBe(200);
    // Another request is in flight (the scope is on) when the first one's late work records.
    const other = get('/held/held', '127.0.0.22', 'bo@example.org');
    late.open();
    await Promise.all(background);
    held.open();
    await other;
    expect(recorded.late).toBeNull();
    expect(recorded.held?.ipAddress).toBe('127.0.0.22');
  });

  it('is null outside any request', () => {
    expect(currentRequestOrigin()).toBeNull();
  });
});
