import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';

/** The run records in this file take up to 15 s to settle on a loaded machine. */
const waitForRun = <T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  opts: { timeoutMs?: number; what?: string } = {},
) => waitFor(probe, accept, { timeoutMs: 15_000, ...opts });

/**
 * Issue 14, what a member can do to the agent through a flow: crash it with a run that rejects,
 * freeze it with a regular expression, and find webhook secrets in its log and diagnostics.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** An HTTP endpoint that answers 400 with JSON nested far deeper than the agent can serialize. */
async function startDeepJsonServer() {
  const depth = 100_000;
  const body = '['.repeat(depth) + ']'.repeat(depth);
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/deep`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let agent: RunningAgent;
let deep: Awaited<ReturnType<typeof startDeepJsonServer>>;
let admin: Client;
let member: Client;

beforeAll(async () => {
  deep = await startDeepJsonServer();
  agent = await startAgent();
  admin = new Client(agent.url);
  await signUp(admin, { name: 'Owner' });
  member = new Client(agent.url);
  const account = await signUp(member, { name: 'Member' });
  expect(account.role).toBe('user');
  // The deep-JSON server is on loopback, which flows reach only when an admin allows it.
  const allowed = await admin.put('/api/settings/outbound', { allowList: [new URL(deep.url).host] });
  expect(allowed.status, allowed.text).toBe(200);
});

afterAll(async () => {
  // SIGKILL: an agent stuck in a backtracking regex (today's main) never gets to its SIGTERM handler.
  await agent?.stop('SIGKILL');
  await deep?.stop();
});

async function createFlow(client: Client, flow: unknown) {
  const res = await client.post('/api/flows', flow);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** The agent process is alive and answers an ordinary request. */
async function expectAnswering() {
  expect(agent.process.exitCode, agent.logs.slice(-5).join('\n')).toBeNull();
  const res = await member.get('/api/flows');
  expect(res.status).toBe(200);
}

describe('a flow run cannot end the agent', () => {
  it('a stage whose failure cannot be recorded fails the run; the agent keeps answering', async () => {
    // The answer's body travels with the stage's error; recording it used to throw outside the
    // stage's try, and the rejected run promise, handled by nobody, ended the process.
    const flow = await createFlow(member, {
      name: 'Deep answer',
      trigger: { type: 'api' },
      stages: [
        { id: 'fetch', name: 'Fetch', kind: 'http_request', config: { method: 'GET', url: deep.url } },
        { id: 'after', name: 'After', kind: 'notify', config: { title: 'never', body: 'never' } },
      ],
    });

    // Without ?wait: nobody awaits the run, the path that used to be unhandled.
    const started = await member.post(`/api/flows/${flow.id}/run`, {});
    expect(started.status, started.text).toBe(202);
    const run = await waitForRun(
      async () => (await member.get(`/api/flows/runs/${started.json.id}`)).json,
      (r) => r?.status !== 'running',
      { what: 'the run to finish' },
    );
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Fetch: .*answered 400/);
    expect(run.stages.map((s: any) => s.status)).toEqual(['failed', 'skipped']);
    expect(run.stages[0].output).toEqual({ omitted: expect.stringMatching(/nested too deeply/) });
    await expectAnswering();

    // With ?wait the caller gets the failed run, and the agent still answers.
    const waited = await member.post(`/api/flows/${flow.id}/run?wait=true`, {});
    expect(waited.status, waited.text).toBe(200);
    expect(waited.json.status).toBe('failed');
    await expectAnswering();
  });
});

describe('regular expressions in conditions run in linear time', () => {
  const conditionFlow = (compareTo: string) => ({
    name: 'Pattern',
    trigger: { type: 'api' },
    stages: [
      {
        id: 'check',
        name: 'Check',
        kind: 'condition',
        config: { value: '{{trigger.text}}', operator: 'matches', compareTo },
      },
    ],
  });

  it('a catastrophic pattern gets the right answer while the agent keeps answering others', async () => {
    const flow = await createFlow(member, conditionFlow('(a+)+$'));
    // A backtracking engine needs about 2^n steps for n a's before the b: thirty froze the agent
    // for seconds; five thousand would hold it for longer than the universe has existed.
    const text = `${'a'.repeat(5000)}b`;
    const run = member.post(`/api/flows/${flow.id}/run?wait=true`, { input: { text } });
    const other = admin.get('/api/flows');
    const [ran, answered] = await Promise.all([run, other]);
    expect(answered.status).toBe(200);
    expect(ran.status, ran.text).toBe(200);
    expect(ran.json.status).toBe('succeeded');
    expect(ran.json.stages[0].output).toEqual({ passed: false });

    const hit = await member.post(`/api/flows/${flow.id}/run?wait=true`, {
      input: { text: 'a'.repeat(5000) },
    });
    expect(hit.json.stages[0].output).toEqual({ passed: true });
    await expectAnswering();
  });

  it('refuses at save time a pattern the engine cannot run, saying why', async () => {
    for (const pattern of ['(a)\\1', '(?=a)a', '(?<!x)y', '(']) {
      const res = await member.post('/api/flows', conditionFlow(pattern));
      expect(res.status, pattern).toBe(400);
      expect(res.json.message, pattern).toMatch(/^Stage "Check": Not a usable regular expression/);
      expect(res.json.message, pattern).toMatch(/RE2.*backreferences.*lookarounds/);
    }
    const saved = await createFlow(member, conditionFlow('^kitchen (on|off)$'));
    const update = await member.put(`/api/flows/${saved.id}`, conditionFlow('(?=x)'));
    expect(update.status).toBe(400);
  });

  it('a pattern built at run time that the engine cannot run fails its stage clearly', async () => {
    const flow = await createFlow(member, {
      ...conditionFlow('{{trigger.pattern}}'),
    });
    const res = await member.post(`/api/flows/${flow.id}/run?wait=true`, {
      input: { text: 'ab', pattern: '(?<=a)b' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.status).toBe('failed');
    expect(res.json.error).toMatch(/^Check: Not a usable regular expression: .*\(conditions match with RE2/);
    await expectAnswering();
  });
});

describe('webhook secrets stay out of logs and diagnostics', () => {
  it('the request log and the diagnostics bundle show hook paths without the secret', async () => {
    const flow = await createFlow(member, {
      name: 'Hooked',
      trigger: { type: 'webhook' },
      stages: [{ id: 'n', name: 'Note', kind: 'notify', config: { title: 'hook', body: '{{trigger.x}}' } }],
    });
    const secret = flow.webhook.productionPath.split('/').pop();
    expect(secret.length).toBeGreaterThan(20);
    expect((await member.put(`/api/flows/${flow.id}/status`, { status: 'active' })).status).toBe(200);

    const hook = new Client(agent.url);
    expect((await hook.post(`${flow.webhook.productionPath}?wait=true`, { x: 1 })).status).toBe(200);
    // The test URL while not listening: a 404 whose request line is logged at info.
    expect((await hook.post(flow.webhook.testPath, { x: 2 })).status).toBe(404);
    expect((await member.post(`/api/flows/${flow.id}/webhook/listen`)).status).toBe(200);
    expect((await hook.post(`${flow.webhook.testPath}?wait=true`, { x: 3 })).status).toBe(200);

    const hookLines = await waitForRun(
      async () => agent.logs.filter((l) => l.includes(`/api/hooks/${flow.id}/`)),
      (lines) => lines.length >= 3,
      { what: 'the hook requests in the log' },
    );
    expect(hookLines.map((l) => JSON.parse(l).path)).toEqual([
      `/api/hooks/${flow.id}/[redacted]`,
      `/api/hooks/${flow.id}/[redacted]/test`,
      `/api/hooks/${flow.id}/[redacted]/test`,
    ]);
    expect(agent.logs.filter((l) => l.includes(secret))).toEqual([]);

    const bundle = await admin.get('/api/diagnostics/bundle');
    expect(bundle.status).toBe(200);
    expect(bundle.text).toContain(`/api/hooks/${flow.id}/[redacted]`);
    expect(bundle.text).not.toContain(secret);
  });
});

describe('process-level handlers (agent/src/lib/process-guards.ts, compiled)', () => {
  /** Runs a script that installs the agent's guards with its logger, then leaves a promise unhandled. */
  function runGuarded(exitOnUnhandledRejection: boolean) {
    const script = `
      const { createLogger } = await import('./agent/dist/lib/logger.js');
      const { installProcessGuards } = await import('./agent/dist/lib/process-guards.js');
      const log = createLogger('info');
      installProcessGuards(process, log, { exitOnUnhandledRejection: ${exitOnUnhandledRejection} });
      Promise.reject(new Error('nobody handles this'));
      setTimeout(() => log.info('still serving'), 200);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    return new Promise<{ code: number | null; lines: any[] }>((resolve) =>
      child.on('close', (code) =>
        resolve({
          code,
          lines: out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        }),
      ),
    );
  }

  it('a running hub logs an unhandled rejection with its error and keeps going', async () => {
    const { code, lines } = await runGuarded(false);
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(['unhandled promise rejection', 'still serving']);
    expect(lines[0]).toMatchObject({ level: 50, err: { message: 'nobody handles this' } });
  });

  it('under test (NODE_ENV=test) the agent logs it and exits 1, so the test that caused it fails', async () => {
    const { code, lines } = await runGuarded(true);
    expect(code).toBe(1);
    expect(lines.map((l) => l.msg)).toEqual(['unhandled promise rejection']);
  });
});
