import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import readline from 'node:readline';
import type { Service } from 'bonjour-service';

/**
 * The network tools' contact with the outside: ping and tracepath as child processes (execFile-style,
 * never a shell, fixed arguments), DNS through node's resolver, a TCP connect, mDNS/DNS-SD through
 * bonjour-service, and a Wake-on-LAN datagram. Each takes an AbortSignal: the route aborts it when
 * the browser goes away or the hard timeout passes, and the work stops (a child is killed).
 */

export type Emit = (line: string) => void;

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
}

/** Runs a program, emitting each line of its output as it comes; resolves when it exits. */
export function runLines(
  file: string,
  args: string[],
  signal: AbortSignal,
  emit: Emit,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    // spawn with an array and no shell: the target is one argv entry, never parsed by a shell.
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
    const lines: string[] = [];
    const onLine = (line: string) => {
      lines.push(line);
      emit(line);
    };
    readline.createInterface({ input: child.stdout }).on('line', onLine);
    readline.createInterface({ input: child.stderr }).on('line', onLine);
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.name === 'AbortError') return; // 'close' follows with the signal
      reject(err.code === 'ENOENT' ? new Error(`${file} is not installed on this hub`) : err);
    });
    child.on('close', (code, sig) => resolve({ code, signal: sig, lines }));
  });
}

/** The figures of ping's closing lines: `4 packets transmitted, 4 received, 0% packet loss` and `rtt min/avg/max/mdev = …`. */
export function parsePingSummary(lines: string[]): {
  transmitted: number | null;
  received: number | null;
  lossPercent: number | null;
  avgMs: number | null;
} {
  const text = lines.join('\n');
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received.*?([\d.]+)% packet loss/.exec(text);
  const rtt = /= [\d.]+\/([\d.]+)\/[\d.]+\/[\d.]+ ms/.exec(text);
  return {
    transmitted: counts ? Number(counts[1]) : null,
    received: counts ? Number(counts[2]) : null,
    lossPercent: counts ? Number(counts[3]) : null,
    avgMs: rtt ? Number(rtt[1]) : null,
  };
}

/** tracepath ends with `Resume: pmtu 65535 hops 1 back 1`. */
export function parseTracepathSummary(lines: string[]): { hops: number | null; pmtu: number | null } {
  const m = /Resume: pmtu (\d+)(?: hops (\d+))?/.exec(lines.join('\n'));
  return { pmtu: m ? Number(m[1]) : null, hops: m?.[2] ? Number(m[2]) : null };
}

export type DnsType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'SRV' | 'PTR' | 'NS';

/** One line per record, as dig's short form would print it. */
export function formatDnsRecords(type: DnsType, records: unknown[]): string[] {
  return records.map((r) => {
    if (typeof r === 'string') return r;
    if (Array.isArray(r)) return r.join('');
    const o = r as Record<string, unknown>;
    if (type === 'MX') return `${String(o.priority)} ${String(o.exchange)}`;
    if (type === 'SRV')
      return `${String(o.priority)} ${String(o.weight)} ${String(o.port)} ${String(o.name)}`;
    return JSON.stringify(r);
  });
}

export async function dnsLookup(
  name: string,
  type: DnsType,
  resolver: string | null,
  signal: AbortSignal,
): Promise<{ server: string; records: string[] }> {
  const r = new Resolver({ timeout: 3000, tries: 2 });
  if (resolver) r.setServers([resolver]);
  signal.addEventListener('abort', () => r.cancel(), { once: true });
  const records: unknown[] =
    type === 'PTR' && net.isIP(name) ? await r.reverse(name) : ((await r.resolve(name, type)) as unknown[]);
  return { server: r.getServers()[0] ?? 'the hub’s resolver', records: formatDnsRecords(type, records) };
}

/** 'open' on connect, 'closed' on a refusal (RST), 'timeout' when nothing answers in time. */
export function tcpCheck(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ state: 'open' | 'closed' | 'timeout' | 'unreachable'; ms: number; detail: string | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host, port });
    const done = (state: 'open' | 'closed' | 'timeout' | 'unreachable', detail: string | null = null) => {
      socket.destroy();
      signal.removeEventListener('abort', onAbort);
      resolve({ state, ms: Math.round((performance.now() - started) * 10) / 10, detail });
    };
    const onAbort = () => done('timeout', 'stopped');
    signal.addEventListener('abort', onAbort, { once: true });
    socket.setTimeout(timeoutMs, () => done('timeout'));
    socket.once('connect', () => done('open'));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ECONNREFUSED' ? 'closed' : 'unreachable', err.code ?? err.message),
    );
  });
}

/** The home's devices by their DNS-SD service type (`_esphomelib._tcp` and so on). */
export const DISCOVERY_TYPES = [
  { type: 'esphomelib', label: 'ESPHome' },
  { type: 'home-assistant', label: 'Home Assistant' },
  { type: 'wyoming', label: 'Wyoming' },
] as const;

export interface DiscoveredService {
  kind: string;
  name: string;
  host: string;
  port: number;
  addresses: string[];
}

export function describeService(
  kind: string,
  s: Pick<Service, 'name' | 'host' | 'port' | 'addresses'>,
): DiscoveredService {
  return { kind, name: s.name, host: s.host, port: s.port, addresses: [...(s.addresses ?? [])] };
}

export function formatDiscovered(d: DiscoveredService): string {
  const where = d.addresses.length ? d.addresses.join(', ') : d.host;
  return `${d.kind}: ${d.name} at ${where} port ${d.port} (${d.host})`;
}

export interface MdnsOptions {
  /** The interface address multicast goes through; the system's default when absent. */
  interface?: string;
  /** 5353 unless a test uses another. */
  port?: number;
  /** The address the socket binds (multicast-dns binds the interface address by default, which receives no multicast). */
  bind?: string;
}

/** Browses for the home's service types for `seconds`, emitting each service as it appears. */
export async function discover(
  seconds: number,
  signal: AbortSignal,
  onService: (s: DiscoveredService) => void,
  opts: MdnsOptions = {},
): Promise<DiscoveredService[]> {
  // bonjour-service and its DNS packet code load with the first discovery, not at every start.
  const { Bonjour } = await import('bonjour-service');
  if (signal.aborted) return [];
  return new Promise((resolve, reject) => {
    const found: DiscoveredService[] = [];
    let failed: unknown = null;
    const bonjour = new Bonjour(
      {
        ...(opts.interface ? { interface: opts.interface } : {}),
        ...(opts.port ? { port: opts.port } : {}),
        ...(opts.bind ? { bind: opts.bind } : {}),
      } as object,
      (err: unknown) => (failed ??= err),
    );
    const browsers = DISCOVERY_TYPES.map(({ type, label }) =>
      bonjour.find({ type }, (s) => {
        const d = describeService(label, s);
        found.push(d);
        onService(d);
      }),
    );
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      for (const b of browsers) b.stop();
      bonjour.destroy();
      if (failed && !found.length) reject(failed instanceof Error ? failed : new Error(String(failed)));
      else resolve(found);
    };
    const timer = setTimeout(finish, seconds * 1000);
    signal.addEventListener('abort', finish, { once: true });
  });
}

/** The magic packet: 6 bytes of 0xFF, then the MAC 16 times (102 bytes). */
export function magicPacket(mac: string): Buffer {
  const bytes = Buffer.from(mac.replace(/[:-]/g, ''), 'hex');
  if (bytes.length !== 6) throw new Error('A MAC address has 6 bytes');
  return Buffer.concat([Buffer.alloc(6, 0xff), ...Array.from({ length: 16 }, () => bytes)]);
}

export function sendWake(mac: string, broadcast: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const packet = magicPacket(mac);
    const socket = dgram.createSocket('udp4');
    socket.once('error', (err) => {
      socket.close();
      reject(err);
    });
    socket.bind(0, () => {
      socket.setBroadcast(true);
      socket.send(packet, port, broadcast, (err) => {
        socket.close();
        if (err) reject(err);
        else resolve(packet.length);
      });
    });
  });
}
