import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditListSchema, auditSummarySchema, type AuditEvent } from '../../agent/src/contract/audit.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, createInvite, signUp, uniqueEmail } from '../support/auth.js';
import { Client } from '../support/http.js';
import { totpAt } from '../support/totp.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink.js';

/**
 * The security event log (issue 18): the existing security events leave a row with who, from where
 * and the outcome; nothing secret reaches a row or the CSV; filters, paging and CSV export; admins
 * only; a year's retention. The agent trusts X-Forwarded-For so each client has its own address.
 */
let agent: RunningAgent;
let sim: HomeAssistantSim;
let sink: SmtpSink;
/** Password-reset mail goes to the sink; the same settings when the agent restarts. */
let agentEnv: Record<string, string>;
let owner: Client;
let ownerId: number;
let ownerEmail: string;
const OWNER_IP = '127.0.0.10';
const OWNER_UA = 'AuditTest/owner';
/** Every secret this file hands the agent: none may appear in the audit table or the CSV. */
const secrets: string[] = [TEST_PASSWORD];

const browser = (ip: string, ua = `AuditTest/${ip}`) =>
  new Client(agent.url, { 'x-forwarded-for': ip, 'user-agent': ua });

async function events(query: string, as: Client = owner): Promise<AuditEvent[]> {
  const res = await as.get(`/api/audit?${query}`);
  expect(res.status, res.text).toBe(200);
  return auditListSchema.parse(res.json).events;
}

/** RFC 4180: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

beforeAll(async () => {
  sim = await startHomeAssistantSim();
  secrets.push(sim.token);
  sink = await startSmtpSink();
  agentEnv = {
    NEXUS_TRUST_PROXY: 'true',
    SMTP_URL: sink.url,
    SMTP_FROM: 'Nexus <nexus@example.test>',
    NEXUS_PUBLIC_URL: 'https://nexus.example.test',
  };
  agent = await startAgent({ env: agentEnv });
  owner = browser(OWNER_IP, OWNER_UA);
  ownerEmail = uniqueEmail('owner');
  ownerId = (await signUp(owner, { name: 'Owner', email: ownerEmail })).id;
});
afterAll(async () => {
  await agent?.stop();
  await sim?.stop();
  await sink?.close();
});

describe('who may read the log', () => {
  it('is for admins: 401 signed out, 403 for a member (list, CSV and summary alike)', async () => {
    const member = browser('127.0.0.20');
    await signUp(member);
    for (const url of ['/api/audit', '/api/audit?format=csv', '/api/audit/summary', '/api/audit?user=1']) {
      const refused = await member.get(url);
      expect(refused.status, url).toBe(403);
      expect(refused.text).not.toContain(ownerEmail);
      expect((await new Client(agent.url).get(url)).status, url).toBe(401);
    }
    expect((await owner.get('/api/audit')).status).toBe(200);
  });

  it('answers 400 for bad filters, never a 500', async () => {
    for (const q of [
      'type=nope',
      'type=sign_in,nope',
      'from=yesterday',
      'to=2026-13-45',
      'limit=0',
      'limit=501',
      'before=-1',
      'format=xml',
    ]) {
      const res = await owner.get(`/api/audit?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.message).toEqual(expect.any(String));
    }
    expect((await owner.get('/api/audit/summary?days=0')).status).toBe(400);
  });
});

describe('sign-in events', () => {
  it('records the owner’s account creation with its address and browser', async () => {
    const [created] = await events(`type=account_created&user=${ownerId}`);
    expect(created).toMatchObject({
      type: 'account_created',
      outcome: 'success',
      actor: { id: ownerId, email: ownerEmail },
      ipAddress: OWNER_IP,
      userAgent: OWNER_UA,
      details: { role: 'superadmin' },
    });
  });

  it('records success, a wrong password, an unknown e-mail and throttling, never the password tried', async () => {
    const c = browser('127.0.0.30');
    const { id, email } = await signUp(c);
    const wrong = 'not-the-password-123';
    secrets.push(wrong);
    const stranger = browser('127.0.0.31');
    expect((await stranger.post('/api/auth/login', { email, password: wrong })).status).toBe(401);
    const nobody = uniqueEmail('nobody');
    expect((await stranger.post('/api/auth/login', { email: nobody, password: wrong })).status).toBe(401);
    const ok = await browser('127.0.0.32', 'AuditTest/signin').post('/api/auth/login', {
      email,
      password: TEST_PASSWORD,
    });
    expect(ok.status).toBe(200);

    const signIns = await events(`type=sign_in&user=${id}`);
    expect(signIns[0]).toMatchObject({
      actor: { id, email },
      outcome: 'success',
      ipAddress: '127.0.0.32',
      userAgent: 'AuditTest/signin',
    });
    const [wrongPassword] = await events(`type=sign_in_failed&user=${encodeURIComponent(email)}`);
    expect(wrongPassword).toMatchObject({
      outcome: 'failure',
      actor: { id: null, email: null },
      targetUser: { id, email },
      ipAddress: '127.0.0.31',
      details: { email, reason: 'wrong_password' },
    });
    const [unknown] = await events(`type=sign_in_failed&user=${encodeURIComponent(nobody)}`);
    expect(unknown).toMatchObject({
      actor: { id: null, email: null },
      targetUser: null,
      ipAddress: '127.0.0.31',
      details: { email: nobody, reason: 'no_such_account' },
    });

    // Five failures for one account, then the sixth attempt is throttled.
    const victim = browser('127.0.0.33');
    for (let i = 0; i < 5; i++) {
      expect((await victim.post('/api/auth/login', { email, password: wrong })).status).toBe(401);
    }
    // A flood of refused attempts leaves one row a minute, not one each.
    for (let i = 0; i < 3; i++) {
      expect((await victim.post('/api/auth/login', { email, password: wrong })).status).toBe(429);
    }
    const throttledRows = await events(`type=sign_in_throttled&user=${encodeURIComponent(email)}`);
    expect(throttledRows).toHaveLength(1);
    const [throttled] = throttledRows;
    expect(throttled).toMatchObject({ outcome: 'failure', ipAddress: '127.0.0.33', details: { email } });

    // Signing out is recorded for the session's owner.
    expect((await c.post('/api/auth/logout')).status).toBe(200);
    expect((await events(`type=sign_out&user=${id}`))[0]).toMatchObject({
      actor: { id },
      ipAddress: '127.0.0.30',
    });
  });
});

describe('account events', () => {
  it('records password changes, role changes and deletions with the admin who made them', async () => {
    const c = browser('127.0.0.40');
    const { id, email } = await signUp(c);
    const newPassword = 'a-brand-new-password-456';
    secrets.push(newPassword);
    expect((await c.put('/api/auth/password', { currentPassword: TEST_PASSWORD, newPassword })).status).toBe(
      200,
    );
    expect((await events(`type=password_changed&user=${id}`))[0]).toMatchObject({
      actor: { id, email },
      ipAddress: '127.0.0.40',
    });

    expect((await owner.request('PATCH', `/api/users/${id}`, { role: 'admin' })).status).toBe(200);
    expect((await events(`type=role_changed&user=${id}`))[0]).toMatchObject({
      actor: { id: ownerId, email: ownerEmail },
      targetUser: { id, email },
      ipAddress: OWNER_IP,
      userAgent: OWNER_UA,
      details: { from: 'user', to: 'admin' },
    });

    expect((await owner.delete(`/api/users/${id}`)).status).toBe(200);
    // The row still names the account after it is gone.
    expect((await events(`type=account_deleted&user=${encodeURIComponent(email)}`))[0]).toMatchObject({
      actor: { id: ownerId },
      targetUser: { id, email },
      ipAddress: OWNER_IP,
    });
  });

  it('records two-factor authentication turned on and off, never the secret or a code', async () => {
    const c = browser('127.0.0.41');
    const { id } = await signUp(c);
    const setup = await c.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    const secret: string = setup.json.secret;
    secrets.push(secret);
    const on = totpAt(secret);
    expect((await c.post('/api/auth/2fa/enable', { code: on })).status).toBe(200);
    expect((await c.post('/api/auth/2fa/disable', { code: totpAt(secret) })).status).toBe(200);
    const rows = await events(`type=two_factor_enabled,two_factor_disabled&user=${id}`);
    expect(rows.map((r) => [r.type, r.actor.id, r.ipAddress])).toEqual([
      ['two_factor_disabled', id, '127.0.0.41'],
      ['two_factor_enabled', id, '127.0.0.41'],
    ]);
    expect(JSON.stringify(rows)).not.toContain(on);
  });

  it('records a password reset by e-mail link, never the link’s token or the new password', async () => {
    const { id, email } = await signUp(browser('127.0.0.42'));
    const before = sink.messages.length;
    await browser('127.0.0.43').post('/api/auth/password-reset/request', { email });
    const mail = await sink.waitFor((m) => sink.messages.indexOf(m) >= before && m.to.includes(email));
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    const newPassword = 'reset-password-789-secret';
    secrets.push(token!, newPassword);
    const done = await browser('127.0.0.44', 'AuditTest/reset').post('/api/auth/password-reset/confirm', {
      token,
      password: newPassword,
    });
    expect(done.status, done.text).toBe(200);
    expect((await events(`type=password_reset&user=${id}`))[0]).toMatchObject({
      actor: { id, email },
      ipAddress: '127.0.0.44',
      userAgent: 'AuditTest/reset',
      details: { via: 'email_link' },
    });
  });

  it('records invites made and revoked, never their code', async () => {
    const invite = await createInvite(agent.url, { by: owner });
    secrets.push(invite.code);
    expect((await owner.delete(`/api/invites/${invite.id}`)).status).toBe(200);
    const rows = await events('type=invite_created,invite_revoked&limit=50');
    const mine = rows.filter((r) => r.details?.inviteId === invite.id);
    expect(mine.map((r) => r.type)).toEqual(['invite_revoked', 'invite_created']);
    for (const r of mine) expect(r).toMatchObject({ actor: { id: ownerId }, ipAddress: OWNER_IP });
  });
});

describe('tokens and secrets', () => {
  it('records FlowForge API keys, satellite tokens and stored secrets by name only', async () => {
    const flow = await owner.post('/api/flows', { name: 'Audit flow', trigger: { type: 'api' }, stages: [] });
    expect(flow.status, flow.text).toBe(201);
    const key = await owner.post('/api/flows/api-keys', { name: 'Audit key', flowIds: [flow.json.id] });
    expect(key.status, key.text).toBe(201);
    secrets.push(key.json.key);
    expect((await owner.post(`/api/flows/api-keys/${key.json.apiKey.id}/revoke`)).status).toBe(200);
    const keyRows = await events('type=api_key_created,api_key_revoked');
    expect(keyRows.slice(0, 2).map((r) => [r.type, r.target, r.actor.id, r.ipAddress])).toEqual([
      ['api_key_revoked', 'Audit key', ownerId, OWNER_IP],
      ['api_key_created', 'Audit key', ownerId, OWNER_IP],
    ]);

    const sat = await owner.post('/api/devices/satellite', { name: 'Audit satellite' });
    expect(sat.status, sat.text).toBe(201);
    secrets.push(sat.json.token);
    const rotated = await owner.post(`/api/devices/satellite/${sat.json.satellite.id}/token`);
    expect(rotated.status).toBe(200);
    secrets.push(rotated.json.token);
    const satRows = await events('type=satellite_token_created');
    expect(satRows.slice(0, 2).map((r) => [r.target, r.details?.reason, r.ipAddress])).toEqual([
      ['Audit satellite', 'rotated', OWNER_IP],
      ['Audit satellite', 'created', OWNER_IP],
    ]);

    const ha = await owner.put('/api/settings/home-assistant', { url: sim.url, token: sim.token });
    expect(ha.status, ha.text).toBe(200);
    const llmKey = 'sk-audit-secret-0123456789abcdef';
    secrets.push(llmKey);
    const provider = await owner.post('/api/llm/providers', {
      kind: 'openai',
      name: 'auditcloud',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: llmKey,
    });
    expect(provider.status, provider.text).toBe(201);
    const speechKey = 'sk-speech-secret-fedcba9876543210';
    secrets.push(speechKey);
    const speech = await owner.put('/api/speech/settings', {
      stt: { engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:9/v1', apiKey: speechKey },
      tts: { engine: null },
    });
    expect(speech.status, speech.text).toBe(200);
    const secretRows = await events('type=settings_secret_changed');
    expect(secretRows.map((r) => r.target)).toEqual(
      expect.arrayContaining([
        'home_assistant.token',
        'llm.providers.auditcloud.api_key',
        'speech.stt.api_key',
      ]),
    );
    for (const r of secretRows) expect(r).toMatchObject({ actor: { id: ownerId }, ipAddress: OWNER_IP });
  });

  it('keeps every secret used in this file out of the table and the CSV', async () => {
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('select * from audit_events').all());
    db.close();
    const csv = (await owner.get('/api/audit?format=csv')).text;
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      expect(csv).not.toContain(secret);
    }
  });
});

describe('filters, paging and CSV', () => {
  it('pages newest first with `before` and filters by type, user and dates', async () => {
    const all = await events('limit=500');
    expect(all.length).toBeGreaterThan(10);
    const ids = all.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const seen: number[] = [];
    let before: number | null = null;
    do {
      const res = await owner.get(`/api/audit?limit=4${before ? `&before=${before}` : ''}`);
      const page = auditListSchema.parse(res.json);
      expect(page.events.length).toBeLessThanOrEqual(4);
      seen.push(...page.events.map((e) => e.id));
      before = page.nextBefore;
    } while (before !== null);
    expect(seen).toEqual(ids);

    const two = await events('type=sign_in_failed,sign_in_throttled&limit=500');
    expect(two.length).toBeGreaterThan(0);
    expect(new Set(two.map((e) => e.type))).toEqual(new Set(['sign_in_failed', 'sign_in_throttled']));
    const mine = await events(`user=${encodeURIComponent(ownerEmail)}&limit=500`);
    for (const e of mine) expect([e.actor.id, e.targetUser?.id]).toContain(ownerId);

    const today = new Date().toISOString().slice(0, 10);
    expect((await events(`from=${today}&to=${today}&limit=500`)).length).toBe(all.length);
    expect(await events('to=2020-01-01')).toEqual([]);
    expect(await events(`from=${new Date(Date.now() + 3_600_000).toISOString()}`)).toEqual([]);
  });

  it('exports a well-formed CSV with the filters applied, safe to open in a spreadsheet', async () => {
    // A stranger's free text that a spreadsheet would run as a formula.
    const attacker = browser('127.0.0.50', '=HYPERLINK("http://127.0.0.1/x","click")');
    expect(
      (await attacker.post('/api/auth/login', { email: '-2+3@example.com', password: 'whatever-123' }))
        .status,
    ).toBe(401);

    const res = await owner.get('/api/audit?format=csv&type=sign_in_failed');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="nexus-audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(res.text);
    const [header, ...body] = rows;
    expect(header).toEqual([
      'id',
      'at',
      'type',
      'outcome',
      'actor_id',
      'actor_email',
      'target_user_id',
      'target_user_email',
      'target',
      'ip_address',
      'user_agent',
      'details',
    ]);
    expect(body.length).toBe((await events('type=sign_in_failed&limit=500')).length);
    for (const row of body) {
      expect(row).toHaveLength(header!.length);
      expect(row[2]).toBe('sign_in_failed');
    }
    const hostile = body.find((r) => r[9] === '127.0.0.50')!;
    expect(hostile[10]).toBe(`'=HYPERLINK("http://127.0.0.1/x","click")`);
    expect(JSON.parse(hostile[11]!)).toMatchObject({ email: '-2+3@example.com' });
    for (const cell of body.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('summarises sign-ins per day, totals and the addresses that fail most', async () => {
    const res = await owner.get('/api/audit/summary?days=7');
    expect(res.status).toBe(200);
    const summary = auditSummarySchema.parse(res.json);
    expect(summary.signInsPerDay).toHaveLength(7);
    const today = summary.signInsPerDay.at(-1)!;
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.success).toBeGreaterThan(0);
    expect(today.failure).toBeGreaterThan(0);
    expect(summary.totals.throttled).toBeGreaterThan(0);
    expect(summary.failuresByAddress[0]).toEqual({ ipAddress: '127.0.0.33', count: expect.any(Number) });
    expect(summary.countsByType.sign_in_failed).toBe(summary.totals.failures);
  });
});

describe('retention', () => {
  it('deletes rows older than a year when the agent starts, and keeps the rest', async () => {
    const before = (await events('limit=500')).length;
    await agent.stop();
    const db = new Database(path.join(agent.dataDir, 'nexus.db'));
    const insert = db.prepare(
      "insert into audit_events (at, type, outcome, target) values (?, 'sign_in_failed', 'failure', ?)",
    );
    insert.run(Date.now() - 366 * 24 * 3600 * 1000, 'too old');
    insert.run(Date.now() - 364 * 24 * 3600 * 1000, 'still kept');
    db.close();

    agent = await startAgent({ dataDir: agent.dataDir, env: agentEnv });
    owner = browser(OWNER_IP, OWNER_UA);
    const loginRes = await owner.post('/api/auth/login', { email: ownerEmail, password: TEST_PASSWORD });
    expect(loginRes.status).toBe(200);
    const after = await events('limit=500');
    const targets = after.map((e) => e.target);
    expect(targets).toContain('still kept');
    expect(targets).not.toContain('too old');
    expect(after.length).toBe(before + 2); // the kept old row and this sign-in
  });
});
