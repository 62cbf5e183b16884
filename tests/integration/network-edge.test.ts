import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * Issue 14, "strangers on the network", at the HTTP edge: a page on another site that rebinds its
 * name to the hub (DNS rebinding), the console's Content-Security-Policy, a flood of refused
 * requests filling the log, and a forged X-Forwarded-For.
 */

/** A GET with a Host header of our choosing (fetch does not let a caller set Host). */
function get(
  agent: RunningAgent,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: agent.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

/** Opens /api/live with the given Host: 'open', or the status of the refused handshake. */
function liveHandshake(agent: RunningAgent, host: string, cookie: string): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${agent.port}/api/live`, {
      headers: { host, cookie: `nexus_session=${cookie}` },
    });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    socket.on('error', (error) => {
      if (socket.readyState !== WebSocket.CLOSED) reject(error);
    });
  });
}

describe('DNS rebinding: the hub answers only to its own names', () => {
  let agent: RunningAgent;
  let cookie: string;

  beforeAll(async () => {
    agent = await startAgent({ env: { NEXUS_ALLOWED_HOSTS: 'nexus.example.org, *.house.example' } });
    const owner = new Client(agent.url);
    await signUp(owner, { name: 'Rebinding Owner' });
    cookie = owner.cookie('nexus_session')!;
  });
  afterAll(async () => {
    await agent?.stop();
  });

  it('refuses a stranger’s name on the API, the hot status read, the console and the WebSocket', async () => {
    const signedIn = { cookie: `nexus_session=${cookie}` };
    for (const host of [
      'evil.example',
      `evil.example:${agent.port}`,
      'EVIL.example.',
      'nexus.example.org.evil',
    ]) {
      for (const path of ['/api/health', '/api/nexus/status', '/', '/dashboard']) {
        const res = await get(agent, path, { ...signedIn, host });
        expect(res.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(res.body).message).toContain('NEXUS_ALLOWED_HOSTS');
        // A refusal leaks nothing of the status it was asked for.
        expect(res.body).not.toContain('uptime');
      }
    }
    expect(await liveHandshake(agent, 'evil.example', cookie)).toBe(421);
  });

  it('serves its addresses, localhost, .local names and the configured names', async () => {
    const hosts = [
      `127.0.0.1:${agent.port}`,
      `[::1]:${agent.port}`,
      'localhost',
      `localhost:${agent.port}`,
      'nexus.local',
      'NEXUS.local.',
      'nexus',
      'nexus.home.arpa',
      'hub.tail1234.ts.net',
      'nexus.example.org',
      'kitchen.house.example',
    ];
    for (const host of hosts) {
      expect((await get(agent, '/api/health', { host })).status, host).toBe(200);
      const status = await get(agent, '/api/nexus/status', { host, cookie: `nexus_session=${cookie}` });
      expect(status.status, host).toBe(200);
      expect(JSON.parse(status.body)).toHaveProperty('uptime');
      // The console's page (503 "not built yet" when web/dist is missing: still served, not refused;
      // 308 to the hub's HTTPS for names other than loopback, issue 21).
      expect([200, 308, 503], host).toContain((await get(agent, '/dashboard', { host })).status);
    }
    expect(await liveHandshake(agent, 'nexus.local', cookie)).toBe('open');
    expect(await liveHandshake(agent, `127.0.0.1:${agent.port}`, cookie)).toBe('open');
  });
});

describe('the console’s documents carry a strict Content-Security-Policy', () => {
  let agent: RunningAgent;
  beforeAll(async () => {
    agent = await startAgent();
  });
  afterAll(async () => {
    await agent?.stop();
  });

  it('forbids inline and foreign scripts, framing, plugins and foreign form targets', async () => {
    const res = await get(agent, '/dashboard');
    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['permissions-policy']).toContain('microphone=(self)');
    expect(res.headers['permissions-policy']).toContain('camera=()');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // Plain http on the LAN: HSTS means nothing here (browsers ignore it) and would pin a
    // self-signed https name later.
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // The built page has no inline script for the policy to break.
    if (res.status === 200) expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});

describe('HSTS only over https', () => {
  it('is sent when the trusted TLS proxy says the browser came over https, never on plain http', async () => {
    const agent = await startAgent({ env: { NEXUS_TRUST_PROXY: 'true' } });
    try {
      const overTls = await get(agent, '/dashboard', { 'x-forwarded-proto': 'https' });
      expect(overTls.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      const plain = await get(agent, '/dashboard');
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await agent.stop();
    }
  });
});

describe('a flood of refused requests does not flood the log', () => {
  let agent: RunningAgent;
  beforeAll(async () => {
    agent = await startAgent();
  });
  afterAll(async () => {
    await agent?.stop();
  });

  // Waits out one 10 s sampling window for the count.
  it(
    'logs the first few of 2,000 unauthenticated requests, then how many were left out',
    { timeout: 60_000 },
    async () => {
      const stranger = new Client(agent.url);
      const before = agent.logs.length;
      const total = 2000;
      let sent = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (sent < total) {
            sent += 1;
            expect((await stranger.get('/api/auth/user', { cookie: 'nexus_session=guessed' })).status).toBe(
              401,
            );
          }
        }),
      );
      // On a loaded machine the flood can outlast one sampling window (10 s, 20 lines each): count
      // the windows it may have touched rather than assume it fits in one.
      const windows = Math.floor((Date.now() - started) / 10_000) + 2;
      const logs = () => agent.logs.slice(before);
      const requestLines = () => logs().filter((line) => line.includes('"path":"/api/auth/user"'));
      const summaries = () =>
        logs()
          .filter((line) => line.includes('suppressed'))
          .map((line) => JSON.parse(line) as { suppressed?: number; key?: string })
          .filter((line) => typeof line.suppressed === 'number');
      expect(requestLines().length).toBeGreaterThan(0);
      expect(requestLines().length).toBeLessThanOrEqual(20 * windows);
      // The counts of what was left out arrive as each sampling window ends: every request is
      // either a line or counted in a summary.
      await expect
        .poll(() => summaries().reduce((sum, line) => sum + line.suppressed!, 0), { timeout: 25_000 })
        .toBe(total - requestLines().length);
      for (const summary of summaries()) expect(summary.key).toContain('401 GET /api/auth/user 127.0.0.1');
      expect(logs().length).toBeLessThan(requestLines().length + 3 * windows + 5);

      // Other requests still log: a different route's refusal, and a change.
      const other = await stranger.post('/api/auth/login', { email: 'nobody@example.com', password: 'x' });
      expect(other.status).toBeGreaterThanOrEqual(400);
      await expect
        .poll(() => agent.logs.slice(before).some((line) => line.includes('"path":"/api/auth/login"')))
        .toBe(true);
    },
  );
});

describe('X-Forwarded-For is not the sender’s to set', () => {
  async function heartbeatAddress(agent: RunningAgent, forwardedFor: string): Promise<string | null> {
    const owner = new Client(agent.url);
    await signUp(owner, { name: 'Satellite Owner' });
    const created = await owner.post('/api/devices/satellite', { name: 'Hallway' });
    expect(created.status).toBe(201);
    const { satellite, token } = created.json as { satellite: { id: number }; token: string };
    const beat = await new Client(agent.url).post(
      `/api/devices/satellite/${satellite.id}/heartbeat`,
      { signalStrength: -60 },
      { authorization: `Bearer ${token}`, 'x-forwarded-for': forwardedFor },
    );
    expect(beat.status).toBe(200);
    return (beat.json as { ipAddress: string | null }).ipAddress;
  }

  it('records the socket’s address when no proxy is trusted', async () => {
    const agent = await startAgent();
    try {
      expect(await heartbeatAddress(agent, '203.0.113.7')).toBe('127.0.0.1');
    } finally {
      await agent.stop();
    }
  });

  it('with NEXUS_TRUSTED_PROXIES, believes forwarded headers only on connections from the listed proxies', async () => {
    // The test connects from 127.0.0.1: not the proxy at 127.0.0.2, so a stranger reaching the
    // agent's port directly, who claims another address and https.
    const bypassed = await startAgent({ env: { NEXUS_TRUSTED_PROXIES: '127.0.0.2, 192.0.2.0/24' } });
    try {
      expect(await heartbeatAddress(bypassed, '203.0.113.7')).toBe('127.0.0.1');
      const claimedTls = await get(bypassed, '/dashboard', { 'x-forwarded-proto': 'https' });
      expect(claimedTls.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await bypassed.stop();
    }
    const proxied = await startAgent({ env: { NEXUS_TRUSTED_PROXIES: '127.0.0.0/8' } });
    try {
      expect(await heartbeatAddress(proxied, '203.0.113.7, 198.51.100.20')).toBe('198.51.100.20');
      const overTls = await get(proxied, '/dashboard', { 'x-forwarded-proto': 'https' });
      expect(overTls.headers['strict-transport-security']).toMatch(/^max-age=/);
    } finally {
      await proxied.stop();
    }
  });

  it('behind the trusted proxy, records the address the proxy appended, not the one the sender claimed', async () => {
    const agent = await startAgent({ env: { NEXUS_TRUST_PROXY: 'true' } });
    try {
      // The sender claimed 203.0.113.7; the proxy in front appended the address it saw.
      expect(await heartbeatAddress(agent, '203.0.113.7, 198.51.100.20')).toBe('198.51.100.20');
    } finally {
      await agent.stop();
    }
  });
});
