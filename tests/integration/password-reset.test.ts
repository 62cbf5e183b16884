import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { createInvite } from '../support/auth.js';
import { Client } from '../support/http.js';

const PUBLIC_URL = 'https://nexus.example.test';
const EMAIL = 'ada@example.com';

function tokenFrom(text: string): string {
  const match = text.match(/https:\/\/nexus\.example\.test\/reset-password\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no reset link in:\n${text}`);
  return match[1]!;
}

describe('password reset with SMTP configured', () => {
  let sink: SmtpSink;
  let agent: RunningAgent;
  let ada: Client;
  let benInvite: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    agent = await startAgent({
      env: { SMTP_URL: sink.url, SMTP_FROM: 'Nexus <nexus@example.test>', NEXUS_PUBLIC_URL: PUBLIC_URL },
    });
    ada = new Client(agent.url);
    const reg = await ada.post('/api/auth/register', {
      name: 'Ada',
      email: EMAIL,
      password: 'first password',
    });
    expect(reg.status).toBe(201);
    // Ben joins later through an invite Ada makes now (her password changes in between).
    benInvite = (await createInvite(agent.url, { by: ada })).code;
  });
  afterAll(async () => {
    await agent?.stop();
    await sink?.close();
  });

  it('says e-mail is enabled', async () => {
    const res = await new Client(agent.url).get('/api/auth/password-reset/config');
    expect(res.json).toEqual({ emailEnabled: true });
  });

  it('answers the same for known and unknown addresses and mails only the known one', async () => {
    const anon = new Client(agent.url);
    const unknown = await anon.post('/api/auth/password-reset/request', { email: 'nobody@example.com' });
    const known = await anon.post('/api/auth/password-reset/request', { email: 'ADA@example.com ' });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(known.json).toEqual(unknown.json);

    const mail = await sink.waitFor((m) => m.to.includes(EMAIL));
    expect(mail.subject).toBe('Reset your Nexus Console password');
    expect(mail.from).toBe('nexus@example.test');
    expect(mail.text).toContain('within 1 hour');
    expect(tokenFrom(mail.text)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sink.messages.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
  });

  it('sets the password once, signs every session out and leaves a notification', async () => {
    const before = sink.messages.length;
    await new Client(agent.url).post('/api/auth/password-reset/request', { email: EMAIL });
    const mail = await sink.waitFor((m) => sink.messages.indexOf(m) >= before && m.to.includes(EMAIL));
    const token = tokenFrom(mail.text);

    const anon = new Client(agent.url);
    const tooShort = await anon.post('/api/auth/password-reset/confirm', { token, password: 'short' });
    expect(tooShort.status).toBe(400);

    const done = await anon.post('/api/auth/password-reset/confirm', { token, password: 'second password' });
    expect(done.status).toBe(200);
    expect(done.json.message).toContain('Sign in with the new one');

    // The old session is gone; the old password no longer works; the new one does.
    expect((await ada.get('/api/auth/user')).status).toBe(401);
    const oldLogin = await new Client(agent.url).post('/api/auth/login', {
      email: EMAIL,
      password: 'first password',
    });
    expect(oldLogin.status).toBe(401);
    const fresh = new Client(agent.url);
    expect((await fresh.post('/api/auth/login', { email: EMAIL, password: 'second password' })).status).toBe(
      200,
    );

    const reused = await anon.post('/api/auth/password-reset/confirm', { token, password: 'third password' });
    expect(reused.status).toBe(400);
    expect(reused.json.message).toContain('invalid, already used or expired');

    const notes = await fresh.get('/api/notifications');
    expect(notes.json.notifications[0]).toMatchObject({
      title: 'Your password was reset',
      level: 'warning',
      broadcast: false,
      readAt: null,
    });
  });

  it('makes an earlier link useless once a newer one is sent', async () => {
    // Another account: Ada has used up her hourly allowance of reset mails above.
    const BEN = 'ben@example.com';
    await new Client(agent.url).post('/api/auth/register', {
      name: 'Ben',
      email: BEN,
      password: 'first password',
      inviteCode: benInvite,
    });
    const before = sink.messages.length;
    const anon = new Client(agent.url);
    await anon.post('/api/auth/password-reset/request', { email: BEN });
    const first = await sink.waitFor((m) => sink.messages.indexOf(m) >= before);
    await anon.post('/api/auth/password-reset/request', { email: BEN });
    const second = await sink.waitFor((m) => sink.messages.indexOf(m) > sink.messages.indexOf(first));
    const stale = await anon.post('/api/auth/password-reset/confirm', {
      token: tokenFrom(first.text),
      password: 'another password',
    });
    expect(stale.status).toBe(400);
    const ok = await anon.post('/api/auth/password-reset/confirm', {
      token: tokenFrom(second.text),
      password: 'another password',
    });
    expect(ok.status).toBe(200);
  });

  it('refuses malformed input with 400 and the JSON error shape', async () => {
    const anon = new Client(agent.url);
    expect((await anon.post('/api/auth/password-reset/request', { email: 'not-an-email' })).status).toBe(400);
    expect((await anon.post('/api/auth/password-reset/request', '{"email":')).status).toBe(400);
    const badToken = await anon.post('/api/auth/password-reset/confirm', {
      token: 'x',
      password: 'long enough',
    });
    expect(badToken.status).toBe(400);
    expect(badToken.json).toMatchObject({ message: expect.any(String) });
    const unknownToken = await anon.post('/api/auth/password-reset/confirm', {
      token: 'A'.repeat(43),
      password: 'long enough',
    });
    expect(unknownToken.status).toBe(400);
  });
});

describe('password reset without SMTP', () => {
  let agent: RunningAgent;
  beforeAll(async () => {
    agent = await startAgent();
  });
  afterAll(async () => {
    await agent?.stop();
  });

  it('says e-mail is off and points to the command line instead of pretending to send', async () => {
    const client = new Client(agent.url);
    expect((await client.get('/api/auth/password-reset/config')).json).toEqual({ emailEnabled: false });
    const res = await client.post('/api/auth/password-reset/request', { email: 'ada@example.com' });
    expect(res.status).toBe(409);
    expect(res.json.message).toContain('command line');
  });
});
