import { afterEach, describe, expect, it } from 'vitest';
import {
  setupProgressSchema,
  setupResultSchema,
  setupStatusSchema,
  networkCheckSchema,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp, uniqueEmail } from '../support/auth.js';
import { Client } from '../support/http.js';

/** First boot (issue "The appliance"): GET /api/setup/status, POST /api/setup exactly once, progress, skip. */

const agents: RunningAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});

async function freshAgent(): Promise<RunningAgent> {
  const agent = await startAgent();
  agents.push(agent);
  return agent;
}

const owner = (email = uniqueEmail('owner')) => ({ name: 'Ada Owner', email, password: TEST_PASSWORD });

describe('first boot', () => {
  it('needs setup while no account exists, and suggests the host name and a time zone', async () => {
    const agent = await freshAgent();
    const res = await new Client(agent.url).get('/api/setup/status');
    expect(res.status).toBe(200);
    const status = setupStatusSchema.parse(res.json);
    expect(status.needsSetup).toBe(true);
    expect(status.suggested?.hubName).toBeTruthy();
    expect(status.suggested?.timeZone).toBeTruthy();
  });

  it('creates the owner as superadmin, signs them in and stores the hub identity, exactly once', async () => {
    const agent = await freshAgent();
    const browser = new Client(agent.url);
    const first = await browser.post('/api/setup', {
      hubName: 'Kitchen Hub',
      timeZone: 'Europe/Berlin',
      owner: owner(),
    });
    expect(first.status, first.text).toBe(201);
    const result = setupResultSchema.parse(first.json);
    expect(result.user).toMatchObject({ name: 'Ada Owner', role: 'superadmin' });
    expect(result.progress).toMatchObject({
      currentStep: 'network',
      completed: ['welcome', 'owner', 'hub'],
      hubName: 'Kitchen Hub',
      timeZone: 'Europe/Berlin',
    });
    // Signed in by the same answer.
    expect((await browser.get('/api/auth/user')).json).toMatchObject({ role: 'superadmin' });
    expect(setupStatusSchema.parse((await new Client(agent.url).get('/api/setup/status')).json)).toEqual({
      needsSetup: false,
      suggested: null,
    });

    const again = await new Client(agent.url).post('/api/setup', { hubName: 'Other', owner: owner() });
    expect(again.status).toBe(409);
    expect(again.json.message).toContain('already set up');
  });

  it('lets exactly one of two simultaneous setups win', async () => {
    const agent = await freshAgent();
    const browsers = [1, 2, 3].map(() => new Client(agent.url));
    const results = await Promise.all(
      browsers.map((b, n) => b.post('/api/setup', { hubName: `Hub ${n}`, owner: owner() })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const winner = browsers[results.findIndex((r) => r.status === 201)]!;
    // Only one account exists: a later sign-up (invited by the owner) is an ordinary user.
    expect((await signUp(new Client(agent.url), { invitedBy: winner })).role).toBe('user');
  });

  it('refuses bad input with 400 and the first problem', async () => {
    const agent = await freshAgent();
    const c = new Client(agent.url);
    const cases: [unknown, string][] = [
      [{ hubName: '', owner: owner() }, 'hubName'],
      [{ hubName: 'Hub', timeZone: 'Mars/Olympus', owner: owner() }, 'timeZone'],
      [{ hubName: 'Hub', owner: { ...owner(), password: 'short' } }, 'owner.password'],
      [{ hubName: 'Hub', owner: { ...owner(), email: 'not-an-email' } }, 'owner.email'],
      [{ hubName: 'Hub', owner: owner(), extra: true }, ''],
      [{ hubName: 'Hub' }, 'owner'],
    ];
    for (const [body, field] of cases) {
      const res = await c.post('/api/setup', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toContain(field);
    }
    expect((await c.post('/api/setup', 'not json', { 'content-type': 'application/json' })).status).toBe(400);
    // Nothing was created by the refusals.
    expect(setupStatusSchema.parse((await c.get('/api/setup/status')).json).needsSetup).toBe(true);
  });

  it('counts an account made on the sign-in screen as set up; the wizard then resumes at the hub name', async () => {
    const agent = await freshAgent();
    const c = new Client(agent.url);
    expect((await signUp(c)).role).toBe('superadmin');
    expect(setupStatusSchema.parse((await c.get('/api/setup/status')).json).needsSetup).toBe(false);
    expect((await new Client(agent.url).post('/api/setup', { hubName: 'Late', owner: owner() })).status).toBe(
      409,
    );
    const progress = setupProgressSchema.parse((await c.get('/api/setup/progress')).json);
    expect(progress.currentStep).toBe('hub');
    expect(progress.completed).toEqual(['welcome', 'owner']);
  });

  it('can be skipped for the sign-in screen while no account exists, and only then', async () => {
    const agent = await freshAgent();
    const c = new Client(agent.url);
    const skipped = await c.post('/api/setup/skip');
    expect(skipped.status).toBe(200);
    expect(setupStatusSchema.parse((await c.get('/api/setup/status')).json).needsSetup).toBe(false);
    // The first account made afterwards is still the superadmin.
    expect((await signUp(c)).role).toBe('superadmin');
    expect((await c.post('/api/setup/skip')).status).toBe(409);
  });

  it('survives a restart: the status and the progress come from the data directory', async () => {
    const agent = await freshAgent();
    const c = new Client(agent.url);
    expect(
      (await c.post('/api/setup', { hubName: 'Garage', owner: owner('restart@example.com') })).status,
    ).toBe(201);
    await agent.stop();
    const again = await startAgent({ dataDir: agent.dataDir });
    agents.push(again);
    expect(
      setupStatusSchema.parse((await new Client(again.url).get('/api/setup/status')).json).needsSetup,
    ).toBe(false);
    const signedIn = new Client(again.url);
    expect(
      (await signedIn.post('/api/auth/login', { email: 'restart@example.com', password: TEST_PASSWORD }))
        .status,
    ).toBe(200);
    expect(setupProgressSchema.parse((await signedIn.get('/api/setup/progress')).json)).toMatchObject({
      currentStep: 'network',
      hubName: 'Garage',
    });
  });
});

describe('the rest of the wizard', () => {
  it('records each step, refuses to skip a required one, resumes and finishes', async () => {
    const agent = await freshAgent();
    const c = new Client(agent.url);
    expect((await c.post('/api/setup', { hubName: 'Hub', timeZone: 'UTC', owner: owner() })).status).toBe(
      201,
    );

    const network = await c.get('/api/setup/network-check');
    expect(network.status).toBe(200);
    const check = networkCheckSchema.parse(network.json);
    expect(check.checks.map((x) => x.id)).toEqual([
      'lan',
      'dns-servers',
      'dns',
      'internet',
      'console-reachable',
    ]);
    for (const x of check.checks.filter((x) => x.status !== 'pass')) expect(x.fix, x.id).toBeTruthy();

    expect((await c.post('/api/setup/steps/network', { outcome: 'skipped' })).status).toBe(400);
    expect((await c.post('/api/setup/steps/network', { outcome: 'done' })).json.currentStep).toBe(
      'home-assistant',
    );
    expect((await c.post('/api/setup/steps/home-assistant', { outcome: 'skipped' })).json.currentStep).toBe(
      'services',
    );
    const afterServices = setupProgressSchema.parse(
      (await c.post('/api/setup/steps/services', { outcome: 'skipped' })).json,
    );
    expect(afterServices).toMatchObject({
      currentStep: 'done',
      skipped: ['home-assistant', 'services'],
      finishedAt: null,
    });
    expect((await c.post('/api/setup/steps/welcome', { outcome: 'done' })).status).toBe(400);
    expect((await c.post('/api/setup/steps/network', { outcome: 'maybe' })).status).toBe(400);

    const renamed = await c.put('/api/setup/hub', { hubName: 'Living Room', timeZone: 'America/New_York' });
    expect(renamed.json).toMatchObject({ hubName: 'Living Room', timeZone: 'America/New_York' });
    const finished = setupProgressSchema.parse((await c.post('/api/setup/finish')).json);
    expect(finished.currentStep).toBe('done');
    expect(finished.finishedAt).not.toBeNull();
  });

  it('is for admins: 401 signed out, 403 for a user', async () => {
    const agent = await freshAgent();
    const ownerClient = new Client(agent.url);
    expect((await ownerClient.post('/api/setup', { hubName: 'Hub', owner: owner() })).status).toBe(201);
    const anonymous = new Client(agent.url);
    const user = new Client(agent.url);
    await signUp(user, { invitedBy: ownerClient });
    for (const [method, path, body] of [
      ['GET', '/api/setup/progress'],
      ['GET', '/api/setup/network-check'],
      ['PUT', '/api/setup/hub', { hubName: 'X', timeZone: 'UTC' }],
      ['POST', '/api/setup/steps/network', { outcome: 'done' }],
      ['POST', '/api/setup/finish'],
    ] as const) {
      expect((await anonymous.request(method, path, body)).status, path).toBe(401);
      expect((await user.request(method, path, body)).status, path).toBe(403);
    }
  });
});
