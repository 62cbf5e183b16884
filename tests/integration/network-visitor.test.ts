import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkVisitorSchema } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * GET /api/network/visitor (issue 17, /unifi-teleport's check). Only headers name other addresses
 * here: every request goes to the agent on loopback.
 */
let direct: RunningAgent;
let proxied: RunningAgent;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    startAgent({ env: { OLLAMA_URL: 'http://127.0.0.1:9' } }),
    startAgent({ env: { OLLAMA_URL: 'http://127.0.0.1:9', NEXUS_TRUSTED_PROXIES: '127.0.0.1' } }),
  ]);
});

afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

describe('GET /api/network/visitor', () => {
  it('refuses a stranger', async () => {
    const res = await new Client(direct.url).get('/api/network/visitor');
    expect(res.status).toBe(401);
  });

  it('tells a member on loopback that they are on the LAN, not a VPN', async () => {
    const owner = new Client(direct.url);
    await signUp(owner, { name: 'Owner' });
    const member = new Client(direct.url);
    await signUp(member, { name: 'Member' });
    const res = await member.get('/api/network/visitor');
    expect(res.status, res.text).toBe(200);
    expect(networkVisitorSchema.parse(res.json)).toEqual({
      address: '127.0.0.1',
      viaVpn: false,
      range: '127.0.0.0/8',
      kind: 'lan',
    });
  });

  it('ignores a forged X-Forwarded-For when no proxy is trusted', async () => {
    const member = new Client(direct.url);
    await signUp(member, { name: 'Forger' });
    const res = await member.get('/api/network/visitor', { 'x-forwarded-for': '100.100.1.2' });
    expect(res.json).toMatchObject({ address: '127.0.0.1', kind: 'lan', viaVpn: false });
  });

  it("behind the trusted proxy, judges the proxy's forwarded address (its last entry)", async () => {
    const owner = new Client(proxied.url);
    await signUp(owner, { name: 'Owner' });
    // The client claims Tailscale; our proxy appended the real (public) address last.
    const spoofed = await owner.get('/api/network/visitor', {
      'x-forwarded-for': '100.100.1.2, 203.0.113.9',
    });
    expect(spoofed.json).toEqual({ address: '203.0.113.9', viaVpn: false, range: null, kind: 'other' });
    const tailnet = await owner.get('/api/network/visitor', { 'x-forwarded-for': '100.100.1.2' });
    expect(tailnet.json).toEqual({
      address: '100.100.1.2',
      viaVpn: true,
      range: '100.64.0.0/10',
      kind: 'tailscale',
    });
  });
});
