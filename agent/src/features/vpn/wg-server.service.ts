import { eq } from 'drizzle-orm';
import type {
  WgPeer,
  WgPeerCreated,
  WgPeerInput,
  WgServer,
  WgServerInput,
} from '../../contract/wireguard.js';
import { wgServerInputSchema } from '../../contract/wireguard.js';
import {
  generatePresharedKey,
  generateWgKeyPair,
  type WireguardAdapter,
  type WgPeerConf,
} from '../../adapters/wireguard.js';
import { wgPeerConnected, type WgInterface } from '../../adapters/vpn.js';
import type { Db } from '../../db/client.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { intToIp, ipToInt, serverRange, renderClientConfig } from './wg-config.js';
import { wgPeers, wgServer, type WgPeerRow } from './wireguard.table.js';
import type { VpnEventLog } from './vpn-events.js';

/**
 * The hub's own WireGuard server (issue 17): phones and laptops dial in. Settings and peers live in
 * the database (keys sealed); the interface is made from them at start and after every change, so a
 * restart restores it. The owner's own server is free on every plan.
 */

const DEFAULTS = { interface: 'wg0', listenPort: 51820, address: '10.8.0.1/24', endpoint: '' } as const;

export function createWgServerService(deps: {
  db: Db;
  secrets: SecretBox;
  adapter: WireguardAdapter;
  events: VpnEventLog;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let problem: string | null = null;
  /** Serializes applies: two quick changes must not interleave their `ip`/`wg` commands. */
  let applying: Promise<void> = Promise.resolve();

  const row = () => deps.db.select().from(wgServer).where(eq(wgServer.id, 1)).get();
  const peerRows = () => deps.db.select().from(wgPeers).all();

  async function apply(): Promise<void> {
    const s = row();
    if (!s) return;
    try {
      if (!s.enabled) {
        if (await deps.adapter.exists(s.interface)) {
          await deps.adapter.deleteInterface(s.interface);
          deps.events.record('server-stopped', null, s.interface, `${s.interface} brought down`);
        }
        problem = null;
        return;
      }
      const existed = await deps.adapter.exists(s.interface);
      await deps.adapter.ensureInterface(s.interface);
      const peers: WgPeerConf[] = peerRows()
        .filter((p) => p.enabled)
        .map((p) => ({
          publicKey: p.publicKey,
          presharedKey: deps.secrets.open(p.presharedKeySealed),
          allowedIps: [p.address],
          keepalive: p.keepalive,
        }));
      await deps.adapter.setConfig(s.interface, {
        privateKey: deps.secrets.open(s.privateKeySealed),
        listenPort: s.listenPort,
        peers,
      });
      await deps.adapter.up(s.interface, [s.address]);
      if (!existed)
        deps.events.record(
          'server-started',
          null,
          s.interface,
          `${s.interface} listening on ${s.listenPort}`,
        );
      problem = null;
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
      deps.log.warn({ err, interface: s.interface }, 'applying the WireGuard server failed');
    }
  }

  /** Queues an apply after the previous one; never rejects. */
  function reapply(): Promise<void> {
    applying = applying.then(apply, apply);
    return applying;
  }

  async function view(): Promise<WgServer> {
    const s = row();
    if (!s)
      return {
        configured: false,
        ...DEFAULTS,
        enabled: false,
        dns: null,
        publicKey: null,
        running: false,
        implementation: deps.adapter.implementation(),
        problem: null,
      };
    const running = s.enabled && (await deps.adapter.isUp(s.interface));
    return {
      configured: true,
      interface: s.interface,
      listenPort: s.listenPort,
      address: s.address,
      endpoint: s.endpoint,
      enabled: s.enabled,
      dns: s.dns,
      publicKey: s.publicKey,
      running,
      implementation: deps.adapter.implementation(),
      problem: s.enabled && !running ? (problem ?? 'The interface is not up') : null,
    };
  }

  function toPeer(p: WgPeerRow, live: WgInterface | null): WgPeer {
    const state = live?.peers.find((l) => l.publicKey === p.publicKey);
    const nowSeconds = Math.floor(now() / 1000);
    return {
      id: p.id,
      name: p.name,
      publicKey: p.publicKey,
      address: p.address,
      clientAllowedIps: JSON.parse(p.clientAllowedIps) as string[],
      keepalive: p.keepalive,
      enabled: p.enabled,
      latestHandshake: state?.latestHandshake ? new Date(state.latestHandshake * 1000).toISOString() : null,
      rxBytes: state?.rxBytes ?? 0,
      txBytes: state?.txBytes ?? 0,
      endpoint: state?.endpoint ?? null,
      online: state ? wgPeerConnected(state, nowSeconds) : false,
      configAvailable: p.privateKeySealed !== null,
      createdAt: p.createdAt.toISOString(),
    };
  }

  async function live(): Promise<WgInterface | null> {
    const s = row();
    if (!s?.enabled) return null;
    try {
      return await deps.adapter.dump(s.interface);
    } catch (err) {
      deps.log.warn({ err }, 'reading the WireGuard server state failed');
      return null;
    }
  }

  function requireServer() {
    const s = row();
    if (!s) throw conflict('Set up the WireGuard server first (PUT /api/vpn/server)');
    return s;
  }

  function clientConfig(p: WgPeerRow): string {
    const s = requireServer();
    return renderClientConfig({
      privateKey: deps.secrets.open(p.privateKeySealed!),
      address: p.address,
      dns: s.dns,
      serverPublicKey: s.publicKey,
      presharedKey: deps.secrets.open(p.presharedKeySealed),
      allowedIps: JSON.parse(p.clientAllowedIps) as string[],
      endpoint: s.endpoint,
      keepalive: p.keepalive,
    });
  }

  function findPeer(id: number): WgPeerRow {
    const p = deps.db.select().from(wgPeers).where(eq(wgPeers.id, id)).get();
    if (!p) throw notFound('No such peer');
    return p;
  }

  return {
    /** Restores the interface from the database (agent start); failures are logged, never fatal. */
    start: () => reapply(),

    async stop() {
      await applying.catch(() => undefined);
    },

    view,

    async save(input: WgServerInput): Promise<WgServer> {
      const v = wgServerInputSchema.parse(input);
      const range = serverRange(v.address);
      const dns = v.dns?.trim() || null;
      if (dns && !/^[0-9a-fA-F.:, ]+$/.test(dns)) throw badRequest('DNS must be IP addresses');
      const existing = row();
      for (const p of peerRows()) {
        const ip = ipToInt(p.address.split('/')[0]!);
        if (ip < range.first || ip > range.last || ip === range.host)
          throw conflict(`Peer "${p.name}" (${p.address}) is outside the new range: remove it first`);
      }
      const keys = existing
        ? { privateKeySealed: existing.privateKeySealed, publicKey: existing.publicKey }
        : (() => {
            const pair = generateWgKeyPair();
            return { privateKeySealed: deps.secrets.seal(pair.privateKey), publicKey: pair.publicKey };
          })();
      if (existing && existing.interface !== v.interface) {
        await applying.catch(() => undefined);
        await deps.adapter
          .deleteInterface(existing.interface)
          .catch((err: unknown) => deps.log.warn({ err }, 'removing the old WireGuard interface failed'));
      }
      const values = {
        interface: v.interface,
        listenPort: v.listenPort,
        address: v.address,
        endpoint: v.endpoint,
        enabled: v.enabled,
        dns,
        ...keys,
        updatedAt: new Date(now()),
      };
      deps.db
        .insert(wgServer)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: wgServer.id, set: values })
        .run();
      await reapply();
      return view();
    },

    async peers(): Promise<WgPeer[]> {
      const state = await live();
      return peerRows().map((p) => toPeer(p, state));
    },

    /** How many peers are online now, for the status summary. */
    async peerCount(): Promise<number> {
      return peerRows().length;
    },

    async createPeer(input: WgPeerInput): Promise<WgPeerCreated> {
      const s = requireServer();
      const range = serverRange(s.address);
      const used = new Set(peerRows().map((p) => ipToInt(p.address.split('/')[0]!)));
      used.add(range.host);
      let ip = range.first;
      while (ip <= range.last && used.has(ip)) ip++;
      if (ip > range.last) throw conflict('The server’s address range is full');
      const pair = generateWgKeyPair();
      const network = `${intToIp(range.network)}/${range.prefix}`;
      const inserted = deps.db
        .insert(wgPeers)
        .values({
          name: input.name,
          publicKey: pair.publicKey,
          privateKeySealed: deps.secrets.seal(pair.privateKey),
          presharedKeySealed: deps.secrets.seal(generatePresharedKey()),
          address: `${intToIp(ip)}/32`,
          clientAllowedIps: JSON.stringify(input.clientAllowedIps ?? [network]),
          keepalive: input.keepalive || null,
          enabled: true,
          createdAt: new Date(now()),
        })
        .returning()
        .get();
      await reapply();
      const config = clientConfig(inserted);
      // qrcode (with its PNG encoder) loads when a peer's configuration is first shown.
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(config, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { peer: toPeer(inserted, await live()), config, qrSvg };
    },

    /** The client config, once: the device's private key is forgotten as it is handed out. */
    downloadConfig(id: number): string {
      const p = findPeer(id);
      if (!p.privateKeySealed)
        throw new HttpError(
          410,
          'This device’s config was already downloaded; remove the device and add it again',
        );
      const config = clientConfig(p);
      deps.db.update(wgPeers).set({ privateKeySealed: null }).where(eq(wgPeers.id, id)).run();
      return config;
    },

    async updatePeer(id: number, patch: { name?: string; enabled?: boolean; keepalive?: number | null }) {
      findPeer(id);
      const set: Partial<WgPeerRow> = {};
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.enabled !== undefined) set.enabled = patch.enabled;
      if (patch.keepalive !== undefined) set.keepalive = patch.keepalive || null;
      if (Object.keys(set).length) deps.db.update(wgPeers).set(set).where(eq(wgPeers.id, id)).run();
      await reapply();
      return toPeer(findPeer(id), await live());
    },

    async deletePeer(id: number) {
      findPeer(id);
      deps.db.delete(wgPeers).where(eq(wgPeers.id, id)).run();
      await reapply();
    },
  };
}

export type WgServerService = ReturnType<typeof createWgServerService>;
