import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import type { TailscaleState, VpnAdapter, WgInterface } from '../../adapters/vpn.js';
import { VPN_FAILOVER_SETTING, createVpnService, type SettingsStore } from './vpn.service.js';

const NOW = 1_800_000_000_000;
const nowSeconds = NOW / 1000;

function memorySettings(initial: Record<string, unknown> = {}): SettingsStore {
  const values = new Map(Object.entries(initial));
  return {
    get<T>(key: string, schema: ZodType<T>) {
      const parsed = schema.safeParse(values.get(key));
      return parsed.success ? parsed.data : undefined;
    },
    set: (key, value) => void values.set(key, value),
  };
}

function adapter(opts: {
  wg?: WgInterface[] | null;
  ts?: TailscaleState | null;
  rtt?: number | null;
  ping?: number | null;
}) {
  const probes: string[] = [];
  const vpn: VpnAdapter = {
    wireguard: async () => opts.wg ?? null,
    tailscale: async () => opts.ts ?? null,
    tailscalePing: async (ip) => {
      probes.push(`ping ${ip}`);
      return opts.ping ?? null;
    },
    tcpRoundTrip: async (host, port) => {
      probes.push(`tcp ${host}:${port}`);
      return opts.rtt ?? null;
    },
  };
  return { vpn, probes };
}

const wgUp: WgInterface[] = [
  {
    name: 'wg0',
    listenPort: 51820,
    peers: [
      {
        publicKey: 'p1',
        endpoint: '203.0.113.5:51820',
        allowedIps: ['10.8.0.1/32'],
        latestHandshake: nowSeconds - 30,
        rxBytes: 1,
        txBytes: 1,
      },
    ],
  },
];
const wgStale: WgInterface[] = [
  { ...wgUp[0]!, peers: [{ ...wgUp[0]!.peers[0]!, latestHandshake: nowSeconds - 600 }] },
];
const tsRunning: TailscaleState = {
  backendState: 'Running',
  hostName: 'nexus',
  tailscaleIps: ['100.64.0.9'],
  tailnet: 'home',
  peers: [
    { hostName: 'phone', dnsName: null, tailscaleIps: ['100.64.0.5'], online: true, exitNode: false },
    { hostName: 'router', dnsName: null, tailscaleIps: ['100.64.0.1'], online: true, exitNode: true },
  ],
};
const log = pino({ level: 'silent' });
const service = (a: VpnAdapter, settings = memorySettings()) =>
  createVpnService({ adapter: a, settings, log, now: () => NOW });

describe('vpn status', () => {
  it('is disconnected with provider none when no VPN tool is installed', async () => {
    const { vpn, probes } = adapter({});
    expect(await service(vpn).status()).toMatchObject({
      status: 'disconnected',
      provider: 'none',
      latency: null,
      failover: { activeProvider: 'none', backupProvider: 'none' },
      wireguard: [],
      tailscale: null,
    });
    expect(probes).toEqual([]);
  });

  it('is connected over WireGuard with a recent handshake, timing a TCP round trip to the peer’s tunnel address', async () => {
    const { vpn, probes } = adapter({ wg: wgUp, rtt: 12.3 });
    const status = await service(vpn).status();
    expect(status).toMatchObject({ status: 'connected', provider: 'wireguard', latency: 12.3 });
    expect(status.wireguard[0]!.peers[0]).toMatchObject({
      connected: true,
      latestHandshake: new Date((nowSeconds - 30) * 1000).toISOString(),
    });
    expect(probes).toEqual(['tcp 10.8.0.1:22']);
  });

  it('is disconnected when WireGuard’s last handshake is older than a session lives', async () => {
    const { vpn } = adapter({ wg: wgStale });
    expect(await service(vpn).status()).toMatchObject({
      status: 'disconnected',
      provider: 'none',
      failover: { activeProvider: 'wireguard', backupProvider: 'none' },
    });
  });

  it('pings the exit node over Tailscale', async () => {
    const { vpn, probes } = adapter({ ts: tsRunning, ping: 31 });
    expect(await service(vpn).status()).toMatchObject({
      status: 'connected',
      provider: 'tailscale',
      latency: 31,
    });
    expect(probes).toEqual(['ping 100.64.0.1']);
  });

  it('follows the stored failover choice when both VPNs are up, and proposes the other as backup otherwise', async () => {
    const { vpn } = adapter({ wg: wgUp, ts: tsRunning });
    expect(await service(vpn).status()).toMatchObject({
      provider: 'wireguard',
      failover: { activeProvider: 'wireguard', backupProvider: 'tailscale' },
    });
    const settings = memorySettings({
      [VPN_FAILOVER_SETTING]: { activeProvider: 'tailscale', backupProvider: 'wireguard' },
    });
    expect(await service(vpn, settings).status()).toMatchObject({
      provider: 'tailscale',
      failover: { activeProvider: 'tailscale', backupProvider: 'wireguard' },
    });
  });

  it('treats a tool that fails as that VPN being down, not as an error', async () => {
    const vpn: VpnAdapter = {
      wireguard: async () => {
        throw new Error('Operation not permitted');
      },
      tailscale: async () => {
        throw new Error('failed to connect to local tailscaled');
      },
      tailscalePing: async () => null,
      tcpRoundTrip: async () => null,
    };
    expect(await service(vpn).status()).toMatchObject({ status: 'disconnected', provider: 'none' });
  });
});
