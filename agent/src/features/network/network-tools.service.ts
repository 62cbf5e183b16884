import net from 'node:net';
import type { z } from 'zod';
import {
  NETWORK_TOOL_CONCURRENCY,
  NETWORK_TOOL_PER_MINUTE,
  type NetworkToolDone,
} from '../../contract/network.js';
import { PORT_PRESETS, type networkToolInputSchemas } from '../../contract/wireguard.js';
import {
  discover,
  dnsLookup,
  formatDiscovered,
  parsePingSummary,
  parseTracepathSummary,
  runLines,
  sendWake,
  tcpCheck,
  type Emit,
  type MdnsOptions,
} from '../../adapters/network-tools.js';
import { badRequest, tooManyRequests } from '../../lib/http-error.js';

type Inputs = { [K in keyof typeof networkToolInputSchemas]: z.infer<(typeof networkToolInputSchemas)[K]> };
export type StreamedTool = Exclude<keyof Inputs, 'throughput'>;

/** A prepared run: validated, with its hard time limit; run() emits lines and answers the summary. */
export interface ToolRun {
  timeoutMs: number;
  run(emit: Emit, signal: AbortSignal): Promise<NetworkToolDone>;
}

const HOST_LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${HOST_LABEL}(?:\\.${HOST_LABEL})*\\.?$`);

/**
 * A target is an IP address or a hostname, nothing else. A leading '-' is refused by name: ping and
 * tracepath would read it as an option (the classic injection), even though they get it as one argv entry.
 */
export function checkTarget(value: string, what = 'target'): string {
  const v = value.trim();
  if (v.startsWith('-')) throw badRequest(`The ${what} may not start with "-"`);
  if (net.isIP(v)) return v;
  // An IPv6 literal in brackets, as people paste it from URLs.
  const bracketed = /^\[([0-9a-fA-F:.]+)\]$/.exec(v);
  if (bracketed && net.isIPv6(bracketed[1]!)) return bracketed[1]!;
  if (HOSTNAME.test(v) && !/^[\d.]+$/.test(v)) return v;
  throw badRequest(`The ${what} must be a hostname or an IP address`);
}

/** A resolver is an IP address, optionally with a port (1.1.1.1:53, [2606:4700::1111]:53). */
export function checkResolver(value: string): string {
  const v = value.trim();
  if (net.isIP(v)) return v;
  const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3})|\[([0-9a-fA-F:.]+)\]):(\d{1,5})$/.exec(v);
  const host = m?.[1] ?? m?.[2];
  const port = Number(m?.[3]);
  if (host && net.isIP(host) && port >= 1 && port <= 65535) return v;
  throw badRequest(
    'The resolver must be an IP address, optionally with a port (such as 1.1.1.1 or 127.0.0.1:5300)',
  );
}

export interface NetworkToolsDeps {
  mdns?: MdnsOptions;
  /** Wake-on-LAN's UDP port: 9 (discard), the usual one. */
  wolPort?: number;
  now?: () => number;
  limits?: { concurrent?: number; perMinute?: number };
}

export function createNetworkTools(deps: NetworkToolsDeps = {}) {
  const now = deps.now ?? Date.now;
  const concurrent = deps.limits?.concurrent ?? NETWORK_TOOL_CONCURRENCY;
  const perMinute = deps.limits?.perMinute ?? NETWORK_TOOL_PER_MINUTE;
  const running = new Map<number, number>();
  const starts = new Map<number, number[]>();

  function prepare<T extends StreamedTool>(tool: T, input: Inputs[T]): ToolRun {
    switch (tool) {
      case 'ping': {
        const { target, count } = input as Inputs['ping'];
        const host = checkTarget(target);
        return {
          timeoutMs: count * 1000 + 5000,
          async run(emit, signal) {
            const r = await runLines('ping', ['-n', '-c', String(count), '-W', '2', host], signal, emit);
            const s = parsePingSummary(r.lines);
            if (s.received === null)
              return { ok: false, summary: r.lines.at(-1) ?? `ping ended with ${r.code}` };
            return {
              ok: s.received > 0,
              summary: `${s.received}/${s.transmitted} replies, ${s.lossPercent}% loss${s.avgMs !== null ? `, average ${s.avgMs} ms` : ''}`,
              data: s,
            };
          },
        };
      }
      case 'traceroute': {
        const host = checkTarget((input as Inputs['traceroute']).target);
        return {
          timeoutMs: 60_000,
          async run(emit, signal) {
            const r = await runLines('tracepath', ['-n', '-m', '20', host], signal, emit);
            const s = parseTracepathSummary(r.lines);
            return {
              ok: r.code === 0,
              summary:
                s.hops !== null
                  ? `${s.hops} hop${s.hops === 1 ? '' : 's'}, path MTU ${s.pmtu}`
                  : `tracepath ended with ${r.code}`,
              data: s,
            };
          },
        };
      }
      case 'dns': {
        const { name, type, resolver } = input as Inputs['dns'];
        const host = checkTarget(name, 'name');
        const server = resolver ? checkResolver(resolver) : null;
        return {
          timeoutMs: 10_000,
          async run(emit, signal) {
            try {
              const r = await dnsLookup(host, type, server, signal);
              emit(`;; ${type} records of ${host} from ${r.server}`);
              for (const line of r.records) emit(line);
              return {
                ok: true,
                summary: `${r.records.length} ${type} record${r.records.length === 1 ? '' : 's'}`,
                data: { records: r.records, server: r.server },
              };
            } catch (err) {
              const code = (err as NodeJS.ErrnoException).code ?? 'ERROR';
              // ENOTFOUND/ENODATA are answers (no such name / no such record), not failures of the tool.
              emit(`;; ${code}`);
              return {
                ok: false,
                summary:
                  code === 'ENOTFOUND' || code === 'ENODATA'
                    ? `No ${type} record for ${host}`
                    : `The lookup failed: ${code}`,
                data: { code },
              };
            }
          },
        };
      }
      case 'port': {
        const { target, port, timeoutMs } = input as Inputs['port'];
        const host = checkTarget(target);
        const preset = PORT_PRESETS.find((p) => p.port === port)?.name;
        return {
          timeoutMs: timeoutMs + 2000,
          async run(emit, signal) {
            emit(`Connecting to ${host} port ${port}${preset ? ` (${preset})` : ''}…`);
            const r = await tcpCheck(host, port, timeoutMs, signal);
            const words = {
              open: 'open',
              closed: 'closed (refused)',
              timeout: 'no answer (filtered or down)',
              unreachable: 'unreachable',
            }[r.state];
            emit(`${host}:${port} is ${words} after ${r.ms} ms${r.detail ? ` (${r.detail})` : ''}`);
            return {
              ok: r.state === 'open',
              summary: `Port ${port} is ${words}`,
              data: { state: r.state, ms: r.ms },
            };
          },
        };
      }
      case 'discover': {
        const { seconds } = input as Inputs['discover'];
        return {
          timeoutMs: seconds * 1000 + 3000,
          async run(emit, signal) {
            emit(`Listening for ESPHome, Home Assistant and Wyoming services for ${seconds} s…`);
            const found = await discover(seconds, signal, (d) => emit(formatDiscovered(d)), deps.mdns);
            return {
              ok: true,
              summary: `${found.length} service${found.length === 1 ? '' : 's'} found`,
              data: { services: found },
            };
          },
        };
      }
      case 'wake': {
        const { mac, broadcast } = input as Inputs['wake'];
        const to = broadcast?.trim() || '255.255.255.255';
        if (!net.isIPv4(to))
          throw badRequest('The broadcast address must be an IPv4 address such as 192.168.1.255');
        const port = deps.wolPort ?? 9;
        return {
          timeoutMs: 5000,
          async run(emit) {
            const bytes = await sendWake(mac, to, port);
            emit(`Sent a ${bytes}-byte magic packet for ${mac.toLowerCase()} to ${to} port ${port}`);
            return { ok: true, summary: `Magic packet sent to ${mac.toLowerCase()}`, data: { bytes } };
          },
        };
      }
    }
    throw badRequest('No such tool');
  }

  return {
    prepare,

    /** A slot for one run by this user; 429 past the limits. Call the answer once the run ends. */
    acquire(userId: number): () => void {
      const t = now();
      const recent = (starts.get(userId) ?? []).filter((at) => t - at < 60_000);
      if ((running.get(userId) ?? 0) >= concurrent) {
        throw tooManyRequests('A network tool is already running: stop it or wait until it finishes', 1);
      }
      if (recent.length >= perMinute) {
        throw tooManyRequests(
          `At most ${perMinute} network tool runs a minute: try again shortly`,
          (recent[0]! + 60_000 - t) / 1000,
        );
      }
      recent.push(t);
      starts.set(userId, recent);
      running.set(userId, (running.get(userId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const n = (running.get(userId) ?? 1) - 1;
        if (n > 0) running.set(userId, n);
        else running.delete(userId);
      };
    },
  };
}

export type NetworkTools = ReturnType<typeof createNetworkTools>;
