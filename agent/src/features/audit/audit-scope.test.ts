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
    .post('/held/:name', async (c) => {
      const name = c.req.param('name');
      await waits.get(name);
      await delay(1);
      await Promise.resolve().then(() => null);
      recorded[name] = currentRequestOrigin();
      return c.json({ hooks: await hooksOn() });
    })
    // Answers at once and records later, after its gate opens: work that outlives the request.
    .post('/after/:name', (c) => {
      const name = c.req.param('name');
      background.push(
        (async () => {
          await waits.get(name);
          await delay(1);
          recorded[name] = currentRequestOrigin();
        })(),
      );
      return c.json({});
    })
    // A read: what it sees of the scope and of the hooks while it is being served.
    .get('/read', async (c) => c.json({ origin: currentRequestOrigin(), hooks: await hooksOn() }));
  const send = (path: string, ip: string, user?: string, method = 'POST') =>
    app.request(path, {
      method,
      headers: { 'x-forwarded-for': ip, 'user-agent': `agent ${ip}`, ...(user ? { 'x-user': user } : {}) },
    });
  return { recorded, waits, background, send };
}

describe('audit request scope', () => {
  it('gives every request its own origin across awaits, while others start and end around it', async () => {
    const { recorded, waits, send } = api();
    const a = gate();
    waits.set('a', a.opened);
    const first = send('/held/a', '127.0.0.11', 'ann@example.org');
    // b starts and is answered while a waits: a is still in flight, so the scope stays on for it.
    expect((await send('/held/b', '127.0.0.12')).status).toBe(200);
    a.open();
    expect(await (await first).json()).toEqual({ hooks: true });
    // Nothing in flight now: the scope is off; the next request switches it on again.
    expect(await hooksOn()).toBe(false);
    expect((await send('/held/c', '127.0.0.13', 'cy@example.org')).status).toBe(200);
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
    const { recorded, waits, background, send } = api();
    const late = gate();
    waits.set('late', late.opened);
    const held = gate();
    waits.set('held', held.opened);
    expect((await send('/after/late', '127.0.0.21', 'ann@example.org')).status).toBe(200);
    // Another request is in flight (the scope is on) when the first one's late work records.
    const other = send('/held/held', '127.0.0.22', 'bo@example.org');
    late.open();
    await Promise.all(background);
    held.open();
    await other;
    expect(recorded.late).toBeNull();
    expect(recorded.held?.ipAddress).toBe('127.0.0.22');
  });

  it('leaves reads outside: no origin, and the hooks stay off while they are served', async () => {
    const { send } = api();
    const read = await send('/read', '127.0.0.31', 'ann@example.org', 'GET');
    expect(await read.json()).toEqual({ origin: null, hooks: false });
  });

  it("gives a read no origin even while a change is in flight, neither its own nor the change's", async () => {
    const { recorded, waits, send } = api();
    const held = gate();
    waits.set('change', held.opened);
    const change = send('/held/change', '127.0.0.41', 'ann@example.org');
    const read = await send('/read', '127.0.0.42', 'bo@example.org', 'GET');
    expect((await read.json()).origin).toBeNull();
    held.open();
    await change;
    expect(recorded.change?.ipAddress).toBe('127.0.0.41');
  });

  it('is null outside any request', () => {
    expect(currentRequestOrigin()).toBeNull();
  });
});
