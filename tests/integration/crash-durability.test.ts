import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp, TEST_PASSWORD, uniqueEmail } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * `kill -9` in the middle of a stream of writes: whatever the agent answered 2xx must be there when it
 * starts again on the same data directory, and the database must be whole. The kill comes from the
 * answer handler of the Nth acknowledgement, so the point is the same on every run and no sleep is
 * needed; every other lane has a request in flight at that moment.
 */
const flow = (name: string) => ({
  name,
  trigger: { type: 'api' },
  stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title: name } }],
});

const KILL_AFTER = 120;

describe('kill -9 during a stream of writes', () => {
  let agent: RunningAgent | undefined;
  afterAll(async () => {
    await agent?.stop();
  });

  it('loses no acknowledged write, and the database passes PRAGMA integrity_check', async () => {
    agent = await startAgent();
    const { dataDir } = agent;
    const owner = new Client(agent.url);
    const account = await signUp(owner);
    const keyed = await owner.post('/api/flows', flow('Has API keys'));
    expect(keyed.status, keyed.text).toBe(201);

    let acks = 0;
    let killed = false;
    const victim = agent;
    /** Counts a 2xx; the KILL_AFTERth one ends the agent before any other answer is read. */
    const acknowledged = (status: number, text: string): boolean => {
      if (killed) return false;
      expect(status, text).toBeGreaterThanOrEqual(200);
      expect(status, text).toBeLessThan(300);
      acks += 1;
      if (acks === KILL_AFTER) {
        killed = true;
        victim.process.kill('SIGKILL');
      }
      return true;
    };
    /** A request the kill interrupted rejects (the socket closed): neither acknowledged nor an error. */
    const attempt = <T>(request: Promise<T>) => request.catch(() => null);

    const flowsSaved: string[] = [];
    const flowLane = async (lane: number) => {
      for (let i = 0; !killed; i += 1) {
        const name = `Lane ${lane} flow ${i}`;
        const res = await attempt(owner.post('/api/flows', flow(name)));
        if (res && acknowledged(res.status, res.text)) flowsSaved.push(name);
      }
    };
    const invitesSaved: number[] = [];
    const inviteLane = async () => {
      while (!killed) {
        const res = await attempt(owner.post('/api/invites', { role: 'user', expiresInHours: 24 }));
        if (res && acknowledged(res.status, res.text)) invitesSaved.push(res.json.id);
      }
    };
    // One setting overwritten in turn: the last acknowledged value, or the one in flight at the kill.
    let lastHubName: string | null = null;
    let inFlightHubName: string | null = null;
    const settingLane = async () => {
      for (let i = 0; !killed; i += 1) {
        inFlightHubName = `Hub ${i}`;
        const res = await attempt(owner.put('/api/setup/hub', { hubName: inFlightHubName, timeZone: 'UTC' }));
        if (res && acknowledged(res.status, res.text)) lastHubName = inFlightHubName;
      }
    };
    // Accounts joining by invite: the invite is used up and the user made in one answer.
    const usersSaved: string[] = [];
    const userLane = async () => {
      while (!killed) {
        const invite = await attempt(owner.post('/api/invites', { role: 'user', expiresInHours: 24 }));
        if (!invite || !acknowledged(invite.status, invite.text)) return;
        const email = uniqueEmail('crash');
        const res = await attempt(
          new Client(victim.url).post('/api/auth/register', {
            name: 'Joined',
            email,
            password: TEST_PASSWORD,
            inviteCode: invite.json.code,
          }),
        );
        if (res && acknowledged(res.status, res.text)) usersSaved.push(email);
      }
    };
    const apiKeysSaved: string[] = [];
    const apiKeyLane = async () => {
      for (let i = 0; !killed; i += 1) {
        const res = await attempt(
          owner.post('/api/flows/api-keys', { name: `key ${i}`, flowIds: [keyed.json.id] }),
        );
        if (res && acknowledged(res.status, res.text)) apiKeysSaved.push(`key ${i}`);
      }
    };

    await Promise.all([
      flowLane(1),
      flowLane(2),
      flowLane(3),
      inviteLane(),
      settingLane(),
      userLane(),
      apiKeyLane(),
    ]);
    expect(await victim.stop()).toBeNull(); // ended by the signal, not an exit code
    expect(victim.process.signalCode).toBe('SIGKILL');
    expect(acks).toBe(KILL_AFTER);
    // Every kind of write was acknowledged at least once before the kill.
    for (const saved of [flowsSaved, invitesSaved, usersSaved, apiKeysSaved])
      expect(saved.length).toBeGreaterThan(0);
    expect(lastHubName).not.toBeNull();

    // The files as the kill left them (WAL and all): SQLite's own check finds nothing wrong.
    const db = new Database(path.join(dataDir, 'nexus.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();

    agent = await startAgent({ dataDir });
    const reader = new Client(agent.url);
    const login = await reader.post('/api/auth/login', { email: account.email, password: account.password });
    expect(login.status, login.text).toBe(200);

    const flows = (await reader.get('/api/flows')).json.map((f: { name: string }) => f.name);
    expect(flows).toEqual(expect.arrayContaining(flowsSaved));
    const invites = (await reader.get('/api/invites')).json;
    const inviteIds = invites.invites.map((i: { id: number }) => i.id);
    expect(inviteIds).toEqual(expect.arrayContaining(invitesSaved));
    const keys = (await reader.get('/api/flows/api-keys')).json.map((k: { name: string }) => k.name);
    expect(keys).toEqual(expect.arrayContaining(apiKeysSaved));
    const hubName = (await reader.get('/api/setup/progress')).json.hubName;
    expect([lastHubName, inFlightHubName]).toContain(hubName);
    for (const email of usersSaved) {
      const joined = await new Client(agent.url).post('/api/auth/login', { email, password: TEST_PASSWORD });
      expect(joined.status, `${email}: ${joined.text}`).toBe(200);
    }
  }, 120_000);
});
