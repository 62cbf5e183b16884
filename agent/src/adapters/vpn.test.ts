import { execFile } from 'node:child_process';
import type * as ChildProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  createVpnAdapter,
  parseTailscalePing,
  parseTailscaleStatus,
  parseWgDump,
  wgPeerConnected,
} from './vpn.js';

// The real execFile, watched: a tool that is not installed must not be started at all.
vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof ChildProcess>();
  return { ...real, execFile: vi.fn(real.execFile) };
});

/**
 * `wg show all dump` as wg(8) documents it: tab-separated, each line prefixed by the interface;
 * interface lines carry private key, public key, listen port, fwmark; peer lines public key,
 * preshared key, endpoint, allowed ips, latest handshake, rx, tx, persistent keepalive.
 */
const WG_DUMP = [
  [
    'wg0',
    'cHJpdmF0ZWtleXByaXZhdGVrZXlwcml2YXRla2V5cHI=',
    'c2VydmVycHVia2V5c2VydmVycHVia2V5c2VydmVycHU=',
    '51820',
    'off',
  ],
  [
    'wg0',
    'cGVlcjFwdWJrZXlwZWVyMXB1YmtleXBlZXIxcHVia2U=',
    'cHJlc2hhcmVkcHJlc2hhcmVkcHJlc2hhcmVkcHJlc2g=',
    '203.0.113.5:51820',
    '10.8.0.2/32,fd00:8::2/128',
    '1700000000',
    '123456',
    '654321',
    '25',
  ],
  [
    'wg0',
    'cGVlcjJwdWJrZXlwZWVyMnB1YmtleXBlZXIycHVia2U=',
    '(none)',
    '(none)',
    '10.8.0.3/32',
    '0',
    '0',
    '0',
    'off',
  ],
  [
    'wg1',
    'cHJpdmF0ZTJwcml2YXRlMnByaXZhdGUycHJpdmF0ZTI=',
    'c2VydmVyMnNlcnZlcjJzZXJ2ZXIyc2VydmVyMnNlcnY=',
    '0',
    '0xca6c',
  ],
  [
    'wg1',
    'cGVlcjNwdWJrZXlwZWVyM3B1YmtleXBlZXIzcHVia2U=',
    '(none)',
    '[2001:db8::1]:51820',
    '0.0.0.0/0,::/0',
    '1699999000',
    '1',
    '2',
    'off',
  ],
]
  .map((f) => f.join('\t'))
  .join('\n');

/** `tailscale status --json` (ipnstate.Status), trimmed to a realistic subset of its fields. */
const TAILSCALE_STATUS = JSON.stringify({
  Version: '1.76.1-t1234abcd',
  TUN: true,
  BackendState: 'Running',
  AuthURL: '',
  TailscaleIPs: ['100.101.102.103', 'fd7a:115c:a1e0::1'],
  Self: {
    ID: 'nSelf',
    PublicKey: 'nodekey:aaaa',
    HostName: 'nexus',
    DNSName: 'nexus.tail1234.ts.net.',
    OS: 'linux',
    UserID: 1,
    TailscaleIPs: ['100.101.102.103', 'fd7a:115c:a1e0::1'],
    Online: true,
    ExitNode: false,
    ExitNodeOption: false,
    Active: false,
  },
  Health: [],
  MagicDNSSuffix: 'tail1234.ts.net',
  CurrentTailnet: { Name: 'owner@example.com', MagicDNSSuffix: 'tail1234.ts.net', MagicDNSEnabled: true },
  Peer: {
    'nodekey:bbbb': {
      ID: 'nPhone',
      HostName: 'phone',
      DNSName: 'phone.tail1234.ts.net.',
      OS: 'android',
      TailscaleIPs: ['100.64.0.5'],
      Online: false,
      ExitNode: false,
      ExitNodeOption: false,
    },
    'nodekey:cccc': {
      ID: 'nRouter',
      HostName: 'router',
      DNSName: 'router.tail1234.ts.net.',
      OS: 'linux',
      TailscaleIPs: ['100.64.0.1'],
      Online: true,
      ExitNode: true,
      ExitNodeOption: true,
    },
  },
  User: { '1': { ID: 1, LoginName: 'owner@example.com', DisplayName: 'Owner' } },
});

describe('parseWgDump', () => {
  const interfaces = parseWgDump(WG_DUMP);

  it('reads interfaces and their peers, dropping private and preshared keys', () => {
    expect(interfaces.map((i) => i.name)).toEqual(['wg0', 'wg1']);
    expect(interfaces[0]).toMatchObject({ listenPort: 51820 });
    expect(interfaces[0]!.peers).toHaveLength(2);
    expect(JSON.stringify(interfaces)).not.toContain('cHJpdmF0ZWtleX');
    expect(JSON.stringify(interfaces)).not.toContain('cHJlc2hhcmVk');
  });

  it('reads a peer’s endpoint, allowed IPs, handshake and transfer', () => {
    expect(interfaces[0]!.peers[0]).toEqual({
      publicKey: 'cGVlcjFwdWJrZXlwZWVyMXB1YmtleXBlZXIxcHVia2U=',
      endpoint: '203.0.113.5:51820',
      allowedIps: ['10.8.0.2/32', 'fd00:8::2/128'],
      latestHandshake: 1700000000,
      rxBytes: 123456,
      txBytes: 654321,
    });
  });

  it('maps (none) to null and no handshake to 0; a listen port of 0 to null', () => {
    expect(interfaces[0]!.peers[1]).toMatchObject({ endpoint: null, latestHandshake: 0 });
    expect(interfaces[1]).toMatchObject({ listenPort: null });
    expect(interfaces[1]!.peers[0]!.endpoint).toBe('[2001:db8::1]:51820');
  });

  it('reads nothing from empty output (wg installed, no interfaces)', () => {
    expect(parseWgDump('')).toEqual([]);
  });

  it('counts a peer as connected within 180 s of its last handshake', () => {
    const peer = interfaces[0]!.peers[0]!;
    expect(wgPeerConnected(peer, 1700000000 + 179)).toBe(true);
    expect(wgPeerConnected(peer, 1700000000 + 181)).toBe(false);
    expect(wgPeerConnected(interfaces[0]!.peers[1]!, 1700000000)).toBe(false);
  });
});

describe('parseTailscaleStatus', () => {
  it('reads the backend state, own addresses, tailnet and peers', () => {
    const state = parseTailscaleStatus(TAILSCALE_STATUS);
    expect(state).toMatchObject({
      backendState: 'Running',
      hostName: 'nexus',
      tailscaleIps: ['100.101.102.103', 'fd7a:115c:a1e0::1'],
      tailnet: 'owner@example.com',
    });
    expect(state.peers).toEqual([
      {
        hostName: 'phone',
        dnsName: 'phone.tail1234.ts.net.',
        tailscaleIps: ['100.64.0.5'],
        online: false,
        exitNode: false,
      },
      {
        hostName: 'router',
        dnsName: 'router.tail1234.ts.net.',
        tailscaleIps: ['100.64.0.1'],
        online: true,
        exitNode: true,
      },
    ]);
  });

  it('reads a logged-out node, which has no peers or addresses', () => {
    const state = parseTailscaleStatus(
      JSON.stringify({
        BackendState: 'NeedsLogin',
        AuthURL: 'https://login.tailscale.com/a/x',
        TailscaleIPs: null,
        Self: { HostName: 'nexus' },
        Peer: null,
      }),
    );
    expect(state).toEqual({
      backendState: 'NeedsLogin',
      hostName: 'nexus',
      tailscaleIps: [],
      tailnet: null,
      peers: [],
      exitNode: null,
    });
  });

  it('reads the exit node in use from ExitNodeStatus and its peer entry', () => {
    const state = parseTailscaleStatus(
      JSON.stringify({
        BackendState: 'Running',
        Self: { HostName: 'nexus' },
        Peer: {
          'nodekey:c': { HostName: 'router', TailscaleIPs: ['100.64.0.1'], Online: true, ExitNode: true },
        },
        ExitNodeStatus: { ID: 'nRouter', Online: true, TailscaleIPs: ['100.64.0.1/32'] },
      }),
    );
    expect(state.exitNode).toEqual({ hostName: 'router', tailscaleIps: ['100.64.0.1'], online: true });
    // The peer map not (yet) listing it: the prefixes' addresses still say where traffic goes.
    const bare = parseTailscaleStatus(
      JSON.stringify({
        BackendState: 'Running',
        ExitNodeStatus: { ID: 'n1', Online: false, TailscaleIPs: ['100.64.0.9/32'] },
      }),
    );
    expect(bare.exitNode).toEqual({ hostName: null, tailscaleIps: ['100.64.0.9'], online: false });
  });

  it('refuses output that is not the status JSON', () => {
    expect(() => parseTailscaleStatus('failed to connect to local tailscaled')).toThrow();
    expect(() => parseTailscaleStatus('{}')).toThrow();
  });
});

describe('parseTailscalePing', () => {
  it('reads the round trip of a direct or relayed pong', () => {
    expect(parseTailscalePing('pong from router (100.64.0.1) via 192.0.2.7:41641 in 23ms\n')).toBe(23);
    expect(parseTailscalePing('pong from router (100.64.0.1) via DERP(fra) in 41.5ms')).toBe(41.5);
    expect(parseTailscalePing('pong from router (100.64.0.1) via DERP(syd) in 1.2s')).toBe(1200);
  });

  it('has no latency when there was no pong', () => {
    expect(parseTailscalePing('ping "100.64.0.5" timed out')).toBeNull();
    expect(parseTailscalePing('')).toBeNull();
  });
});

describe('the VPN tools', () => {
  it('starts no process for a tool that is not installed, and runs one that is', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-vpn-tools-'));
    // wg installed with no interfaces: it prints nothing.
    fs.writeFileSync(path.join(dir, 'wg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const pathBefore = process.env.PATH;
    process.env.PATH = dir;
    try {
      const vpn = createVpnAdapter({ tailscaleSocket: path.join(dir, 'tailscaled.sock') });
      vi.mocked(execFile).mockClear();
      expect(await vpn.tailscale()).toBeNull();
      expect(execFile).not.toHaveBeenCalled();
      expect(await vpn.wireguard()).toEqual([]);
      expect(execFile).toHaveBeenCalledTimes(1);
    } finally {
      process.env.PATH = pathBefore;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
