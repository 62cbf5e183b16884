import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Uplinks, UplinksInput } from '../../contract/wireguard.js';
import { UPLINK_ROLES, uplinksInputSchema } from '../../contract/wireguard.js';
import { isIpv4, type WireguardAdapter } from '../../adapters/wireguard.js';
import type { Db } from '../../db/client.js';
import { inBackground } from '../../lib/background.js';
import { badRequest } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { SettingsStore } from './vpn.service.js';
import type { VpnEventLog } from './vpn-events.js';
import { isCidr4, parseUplinkConfig, type UplinkConfig } from './wg-config.js';
import { vpnUplinks } from './wireguard.table.js';

/**
 * Two upstream tunnels (issue 17) with health-checked failover.
 *
 * Design: each uplink gets its own interface (nexus-up0 primary, nexus-up1 backup) configured from
 * the provider's wg-quick file, but without wg-quick's catch-all routes. What goes through "the
 * active tunnel" is a set of routes in the main table — the probe target and the provider config's
 * AllowedIPs narrower than a default route — which the monitor points at the active interface with
 * `ip route replace <cidr> dev <if>` (visible with `ip route get <target>`). A default route
 * (AllowedIPs 0.0.0.0/0) is never installed: the hub's own traffic, the LAN and the providers'
 * endpoints keep their routes. Probes go through each tunnel whatever is active: ICMP with
 * `ping -I <if>`, or a TCP connect from the tunnel's address, which a source rule (table 51830+n)
 * sends out of that tunnel.
 */

type Role = (typeof UPLINK_ROLES)[number];
export const UPLINK_INTERFACES: Record<Role, string> = { primary: 'nexus-up0', backup: 'nexus-up1' };
const RULE_TABLE: Record<Role, number> = { primary: 51830, backup: 51831 };
const LATENCY_POINTS = 120;
export const UPLINK_MONITOR_SETTING = 'vpn.uplinks.monitor';

const monitorSchema = z.object({
  probeTarget: z.string(),
  intervalSeconds: z.number().int(),
  failAfter: z.number().int(),
  recoverAfter: z.number().int(),
});
type Monitor = z.infer<typeof monitorSchema>;
const DEFAULT_MONITOR: Monitor = { probeTarget: '', intervalSeconds: 10, failAfter: 3, recoverAfter: 5 };

interface UplinkState {
  config: UplinkConfig | null;
  up: boolean;
  healthy: boolean | null;
  latencyMs: number | null;
  consecutiveFailures: number;
  consecutiveSuccesses: number;
  /** Counted as down (failAfter failures) until recoverAfter good probes. */
  down: boolean;
}

type ProbeTarget = { kind: 'icmp'; ip: string } | { kind: 'tcp'; host: string; port: number };

export function parseProbeTarget(target: string): ProbeTarget {
  if (isIpv4(target)) return { kind: 'icmp', ip: target };
  const m = /^([A-Za-z0-9.-]{1,253}):(\d{1,5})$/.exec(target);
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 65535)
    return { kind: 'tcp', host: m[1]!, port: Number(m[2]) };
  throw badRequest('The probe target must be an IPv4 address (ICMP) or host:port (TCP)');
}

export function createUplinksService(deps: {
  db: Db;
  secrets: SecretBox;
  settings: SettingsStore;
  adapter: WireguardAdapter;
  events: VpnEventLog;
  log: Logger;
  /** Using the backup uplink is a paid feature (limits.vpnAccess); throws the plan's 403. */
  plan?: { checkVpnFailover(): void };
  /** Told after every switch (the status cache drops its answer). */
  onSwitch?: () => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const state: Record<Role, UplinkState> = {
    primary: fresh(null),
    backup: fresh(null),
  };
  let monitor: Monitor = deps.settings.get(UPLINK_MONITOR_SETTING, monitorSchema) ?? DEFAULT_MONITOR;
  let active: Role | 'none' = 'none';
  const latency: Uplinks['latency'] = [];
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let work: Promise<void> = Promise.resolve();

  function fresh(config: UplinkConfig | null): UplinkState {
    return {
      config,
      up: false,
      healthy: null,
      latencyMs: null,
      consecutiveFailures: 0,
      consecutiveSuccesses: 0,
      down: false,
    };
  }

  /** One queue for applies, probes and switches: `ip` commands never interleave. */
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const result = work.then(fn, fn);
    work = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  function loadConfigs() {
    for (const role of UPLINK_ROLES) {
      const row = deps.db
        .select()
        .from(vpnUplinks)
        .all()
        .find((r) => r.role === role);
      let config: UplinkConfig | null = null;
      if (row) {
        try {
          config = parseUplinkConfig(deps.secrets.open(row.configSealed), role);
        } catch (err) {
          deps.log.warn(
            { err: err instanceof Error ? err.message : String(err), role },
            'a stored uplink config is unusable',
          );
        }
      }
      state[role] = fresh(config);
    }
  }

  function routedCidrs(): string[] {
    const cidrs = new Set<string>();
    for (const role of UPLINK_ROLES)
      for (const a of state[role].config?.allowedIps ?? []) if (isCidr4(a) && !a.endsWith('/0')) cidrs.add(a);
    const target = safeTarget();
    if (target?.kind === 'icmp') cidrs.add(`${target.ip}/32`);
    return [...cidrs];
  }

  function safeTarget(): ProbeTarget | null {
    try {
      return monitor.probeTarget ? parseProbeTarget(monitor.probeTarget) : null;
    } catch {
      return null;
    }
  }

  async function applyUplink(role: Role) {
    const name = UPLINK_INTERFACES[role];
    const config = state[role].config;
    const table = RULE_TABLE[role];
    if (!config) {
      await deps.adapter
        .deleteInterface(name)
        .catch((err: unknown) => deps.log.warn({ err, role }, 'removing an uplink failed'));
      return;
    }
    const source = config.address.split('/')[0]!;
    try {
      await deps.adapter.ensureInterface(name);
      await deps.adapter.setConfig(name, {
        privateKey: config.privateKey,
        peers: [
          {
            publicKey: config.publicKey,
            presharedKey: config.presharedKey,
            endpoint: config.endpoint,
            allowedIps: config.allowedIps,
            keepalive: config.keepalive,
          },
        ],
      });
      await deps.adapter.up(name, [config.address]);
      await deps.adapter.routeReplace('0.0.0.0/0', name, table);
      await deps.adapter.sourceRule(source, table, table);
      state[role].up = true;
    } catch (err) {
      state[role].up = false;
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), role },
        'bringing up an uplink failed',
      );
    }
  }

  async function route(to: Role | 'none') {
    const cidrs = routedCidrs();
    if (to === 'none') {
      for (const role of UPLINK_ROLES)
        for (const c of cidrs) await deps.adapter.routeDelete(c, UPLINK_INTERFACES[role]);
      return;
    }
    for (const c of cidrs) await deps.adapter.routeReplace(c, UPLINK_INTERFACES[to]);
  }

  function backupAllowed(): boolean {
    try {
      deps.plan?.checkVpnFailover();
      return true;
    } catch {
      return false;
    }
  }

  async function switchTo(to: Role | 'none', kind: 'failover' | 'failback' | null, detail: string) {
    const from = active;
    try {
      await route(to);
    } catch (err) {
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), to },
        'switching the uplink route failed',
      );
      return;
    }
    active = to;
    if (kind) deps.events.record(kind, from, to, detail);
    deps.onSwitch?.();
  }

  async function probe(role: Role): Promise<number | null> {
    const target = safeTarget();
    const config = state[role].config;
    if (!target || !config || !state[role].up) return null;
    const timeoutSeconds = Math.max(1, Math.min(monitor.intervalSeconds - 0.5, 3));
    if (target.kind === 'icmp') return deps.adapter.ping(UPLINK_INTERFACES[role], target.ip, timeoutSeconds);
    return deps.adapter.tcpProbe(
      config.address.split('/')[0]!,
      target.host,
      target.port,
      timeoutSeconds * 1000,
    );
  }

  async function tick() {
    const roles = UPLINK_ROLES.filter((r) => state[r].config);
    const results = await Promise.all(roles.map(async (r) => [r, await probe(r)] as const));
    const at = new Date(now()).toISOString();
    for (const [role, ms] of results) {
      const s = state[role];
      s.latencyMs = ms;
      s.healthy = ms !== null;
      if (ms !== null) {
        s.consecutiveSuccesses += 1;
        s.consecutiveFailures = 0;
      } else {
        s.consecutiveFailures += 1;
        s.consecutiveSuccesses = 0;
      }
      if (!s.down && s.consecutiveFailures >= monitor.failAfter) {
        s.down = true;
        deps.events.record(
          'uplink-down',
          role,
          null,
          `${role} failed ${s.consecutiveFailures} probes of ${monitor.probeTarget} in a row`,
        );
      } else if (s.down && s.consecutiveSuccesses >= monitor.recoverAfter) {
        s.down = false;
        deps.events.record(
          'uplink-up',
          null,
          role,
          `${role} answered ${s.consecutiveSuccesses} probes in a row`,
        );
      }
      if (role === active) {
        latency.push({ at, role, ms });
        if (latency.length > LATENCY_POINTS) latency.shift();
      }
    }
    await decide();
  }

  /** Which tunnel should carry the traffic now, and the switch if it changed. */
  async function decide() {
    const p = state.primary;
    const b = state.backup;
    const backupUsable = !!b.config && b.up && !b.down && backupAllowed();
    const primaryUsable = !!p.config && p.up && !p.down;
    if (active === 'primary' || active === 'none') {
      if (primaryUsable && active === 'none') return switchTo('primary', null, 'primary tunnel in use');
      if (!primaryUsable && backupUsable)
        return switchTo('backup', 'failover', `primary failed ${p.consecutiveFailures} probes in a row`);
      if (!p.config && active === 'primary')
        return switchTo(backupUsable ? 'backup' : 'none', null, 'primary removed');
    } else if (active === 'backup') {
      if (primaryUsable)
        return switchTo(
          'primary',
          'failback',
          `primary healthy for ${p.consecutiveSuccesses} probes in a row`,
        );
      if (!backupUsable && !b.config) return switchTo('none', null, 'backup removed');
    }
  }

  /** Fixed rate: the next probe is due an interval after the previous one started, however long it took. */
  function schedule(delayMs = monitor.intervalSeconds * 1000) {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      const started = Date.now();
      inBackground(deps.log, 'the uplink health probe', () =>
        serial(tick).finally(() =>
          schedule(Math.max(0, monitor.intervalSeconds * 1000 - (Date.now() - started))),
        ),
      );
    }, delayMs);
    timer.unref();
  }

  async function applyAll() {
    for (const role of UPLINK_ROLES) await applyUplink(role);
    // A fresh start routes through the primary when it has one; the probes then decide.
    const first: Role | 'none' =
      state.primary.config && state.primary.up
        ? 'primary'
        : state.backup.config && state.backup.up && backupAllowed()
          ? 'backup'
          : 'none';
    await switchTo(first, null, 'uplinks applied');
  }

  function view(): Uplinks {
    return {
      uplinks: UPLINK_ROLES.map((role) => {
        const s = state[role];
        return {
          role,
          configured: !!s.config,
          interface: s.config ? UPLINK_INTERFACES[role] : null,
          endpoint: s.config?.endpoint ?? null,
          address: s.config?.address ?? null,
          up: s.up,
          healthy: s.healthy,
          latencyMs: s.latencyMs,
          consecutiveFailures: s.consecutiveFailures,
          consecutiveSuccesses: s.consecutiveSuccesses,
          latestHandshake: null,
        };
      }),
      active,
      probeTarget: monitor.probeTarget || null,
      intervalSeconds: monitor.intervalSeconds,
      failAfter: monitor.failAfter,
      recoverAfter: monitor.recoverAfter,
      latency: [...latency],
    };
  }

  return {
    /** Restores the uplinks from the database and starts the monitor; never throws. */
    async start() {
      loadConfigs();
      if (!state.primary.config && !state.backup.config) return;
      await serial(applyAll);
      schedule();
    },

    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },

    async view(): Promise<Uplinks> {
      const v = view();
      // The handshake times, read from the interfaces only when an admin looks.
      for (const u of v.uplinks) {
        if (!u.interface) continue;
        const dump = await deps.adapter.dump(u.interface).catch(() => null);
        const hs = dump?.peers[0]?.latestHandshake;
        u.latestHandshake = hs ? new Date(hs * 1000).toISOString() : null;
      }
      return v;
    },

    async save(input: UplinksInput): Promise<Uplinks> {
      const v = uplinksInputSchema.parse(input);
      parseProbeTarget(v.probeTarget);
      const parsed: Partial<Record<Role, UplinkConfig | null>> = {};
      for (const role of UPLINK_ROLES) {
        const text = v[role];
        if (text === undefined) continue;
        parsed[role] = text.trim() === '' ? null : parseUplinkConfig(text, role);
      }
      const willHaveBackup = parsed.backup !== undefined ? parsed.backup !== null : !!state.backup.config;
      if (willHaveBackup) deps.plan?.checkVpnFailover();
      const a = parsed.primary?.address ?? state.primary.config?.address;
      const b = parsed.backup?.address ?? state.backup.config?.address;
      if (a && b && a.split('/')[0] === b.split('/')[0])
        throw badRequest('The primary and backup tunnels need different addresses');
      await serial(async () => {
        await route('none');
        for (const role of UPLINK_ROLES) {
          const config = parsed[role];
          if (config === undefined) continue;
          if (config === null) deps.db.delete(vpnUplinks).where(eqRole(role)).run();
          else {
            const row = { role, configSealed: deps.secrets.seal(v[role]!), updatedAt: new Date(now()) };
            deps.db
              .insert(vpnUplinks)
              .values(row)
              .onConflictDoUpdate({ target: vpnUplinks.role, set: row })
              .run();
          }
          const previous = state[role].config;
          if (previous)
            await deps.adapter.deleteSourceRule(
              previous.address.split('/')[0]!,
              RULE_TABLE[role],
              RULE_TABLE[role],
            );
          state[role] = fresh(config);
          await applyUplink(role);
        }
        monitor = {
          probeTarget: v.probeTarget,
          intervalSeconds: v.intervalSeconds,
          failAfter: v.failAfter,
          recoverAfter: v.recoverAfter,
        };
        deps.settings.set(UPLINK_MONITOR_SETTING, monitor);
        for (const role of UPLINK_ROLES)
          Object.assign(state[role], {
            consecutiveFailures: 0,
            consecutiveSuccesses: 0,
            down: false,
            healthy: null,
          });
        active = 'none';
        await applyAll();
      });
      if (timer) clearTimeout(timer);
      timer = null;
      if (state.primary.config || state.backup.config) schedule();
      return this.view();
    },

    /** For GET /api/vpn/status: the active tunnel and its latest round trip, from memory (no probe). */
    summary(): {
      configured: boolean;
      active: Role | 'none';
      healthy: boolean;
      latencyMs: number | null;
      backupConfigured: boolean;
    } {
      const s = active === 'none' ? null : state[active];
      return {
        configured: !!(state.primary.config || state.backup.config),
        active,
        healthy: !!s && s.up && s.healthy !== false,
        latencyMs: s?.latencyMs ?? null,
        backupConfigured: !!state.backup.config,
      };
    },
  };
}

const eqRole = (role: Role) => eq(vpnUplinks.role, role);

export type UplinksService = ReturnType<typeof createUplinksService>;
