import dns from 'node:dns/promises';
import net from 'node:net';
import WebSocket from 'ws';
import { websocketUrl } from './home-assistant.js';

/**
 * The step-by-step connection test for Home Assistant: DNS, TCP, HTTP, auth, WebSocket and a
 * registry read, each timed, each failure explained in words an owner can act on. It talks to HA
 * directly on the network (no client library) so that every layer is measured on its own.
 */

export type ProbeStepId = 'dns' | 'tcp' | 'http' | 'auth' | 'websocket' | 'registry';

export interface ProbeStep {
  id: ProbeStepId;
  label: string;
  status: 'ok' | 'failed' | 'skipped';
  /** Wall time of the step in ms, null when it did not run. */
  durationMs: number | null;
  /** What the step found (an address, a version, counts). */
  detail: string | null;
  /** What went wrong, in words. */
  problem: string | null;
  /** What to do about it. */
  fix: string | null;
}

export interface ProbeResult {
  ok: boolean;
  steps: ProbeStep[];
  totalMs: number;
  haVersion: string | null;
}

const LABELS: Record<ProbeStepId, string> = {
  dns: 'Resolve the host name (DNS)',
  tcp: 'Open a TCP connection',
  http: 'Reach the HTTP API',
  auth: 'Authenticate with the token',
  websocket: 'Open the WebSocket API',
  registry: 'Read the device and entity registries',
};
const ORDER: ProbeStepId[] = ['dns', 'tcp', 'http', 'auth', 'websocket', 'registry'];

class StepFailure extends Error {
  constructor(
    readonly problem: string,
    readonly fix: string,
  ) {
    super(problem);
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function errno(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.code;
}

export async function probeHomeAssistant(
  target: { url: string; token: string },
  opts: { stepTimeoutMs?: number } = {},
): Promise<ProbeResult> {
  const timeoutMs = opts.stepTimeoutMs ?? 5_000;
  const url = new URL(target.url);
  const https = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : https ? 443 : 80;
  const base = target.url.endsWith('/') ? target.url : `${target.url}/`;
  const apiRoot = new URL('api/', base).toString();
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let address = hostname;
  let haVersion: string | null = null;

  const steps: ProbeStep[] = [];
  const started = performance.now();
  let failed = false;

  const run = async (id: ProbeStepId, body: () => Promise<string>) => {
    if (failed) {
      steps.push({
        id,
        label: LABELS[id],
        status: 'skipped',
        durationMs: null,
        detail: null,
        problem: null,
        fix: null,
      });
      return;
    }
    const t0 = performance.now();
    try {
      const detail = await body();
      steps.push({
        id,
        label: LABELS[id],
        status: 'ok',
        durationMs: round(performance.now() - t0),
        detail,
        problem: null,
        fix: null,
      });
    } catch (error) {
      failed = true;
      const failure =
        error instanceof StepFailure
          ? error
          : new StepFailure(
              error instanceof Error ? error.message : String(error),
              'Run the test again; if it keeps failing, check the agent log.',
            );
      steps.push({
        id,
        label: LABELS[id],
        status: 'failed',
        durationMs: round(performance.now() - t0),
        detail: null,
        problem: failure.problem,
        fix: failure.fix,
      });
    }
  };

  await run('dns', async () => {
    if (net.isIP(hostname)) return `${hostname} is an IP address; no lookup needed`;
    try {
      const found = await dns.lookup(hostname, { all: true });
      address = found[0]!.address;
      return `${hostname} → ${found.map((a) => a.address).join(', ')}`;
    } catch (error) {
      const code = errno(error);
      throw new StepFailure(
        `The name ${hostname} could not be resolved${code ? ` (${code})` : ''}.`,
        hostname.endsWith('.local')
          ? 'Names ending in .local need mDNS, which containers and some networks do not pass. Use the IP address of Home Assistant instead (Settings → System → Network in Home Assistant shows it).'
          : 'Check the spelling of the address, or use the IP address of Home Assistant.',
      );
    }
  });

  await run(
    'tcp',
    () =>
      new Promise<string>((resolve, reject) => {
        const t0 = performance.now();
        const socket = net.connect({ host: address, port });
        socket.setTimeout(timeoutMs);
        socket.once('connect', () => {
          socket.destroy();
          resolve(`${address}:${port} accepted the connection in ${round(performance.now() - t0)} ms`);
        });
        socket.once('timeout', () => {
          socket.destroy();
          reject(
            new StepFailure(
              `Nothing answered at ${address}:${port} within ${timeoutMs / 1000} s.`,
              'The address may be wrong, the machine may be off, or a firewall drops the traffic. Check that Home Assistant runs and that the hub and Home Assistant are on the same network.',
            ),
          );
        });
        socket.once('error', (error) => {
          socket.destroy();
          const code = errno(error);
          if (code === 'ECONNREFUSED') {
            reject(
              new StepFailure(
                `${address} refused the connection on port ${port}: nothing listens there.`,
                `Check that Home Assistant is running and that the port is right (Home Assistant uses 8123 unless you changed it${https ? '; with https behind a proxy the port is usually 443' : ''}).`,
              ),
            );
          } else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
            reject(
              new StepFailure(
                `There is no route from the hub to ${address} (${code}).`,
                'The hub and Home Assistant are on different networks or the address is wrong. Check the IP address and the hub’s network connection.',
              ),
            );
          } else {
            reject(
              new StepFailure(
                `The TCP connection failed: ${code ?? (error as Error).message}.`,
                'Check the address and port of Home Assistant.',
              ),
            );
          }
        });
      }),
  );

  await run('http', async () => {
    let res: Response;
    try {
      res = await fetch(apiRoot, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw httpFailure(error, https, timeoutMs);
    }
    await res.body?.cancel();
    if (res.status === 401) return `${apiRoot} answers like Home Assistant (HTTP 401 without a token)`;
    if (res.status === 404) {
      throw new StepFailure(
        `${apiRoot} answered 404: this server is not Home Assistant's API.`,
        'Enter the address you open Home Assistant with in a browser, without a path (for example http://192.168.1.20:8123).',
      );
    }
    if (res.status === 403) {
      throw new StepFailure(
        'Home Assistant refused this hub with HTTP 403.',
        'Home Assistant bans addresses after repeated failed logins. Remove the hub’s address from ip_bans.yaml in the Home Assistant configuration folder and restart Home Assistant.',
      );
    }
    if (res.status >= 500) {
      throw new StepFailure(
        `The server answered HTTP ${res.status}.`,
        'Home Assistant may still be starting, or a proxy in front of it cannot reach it. Wait a minute and test again.',
      );
    }
    return `${apiRoot} answered HTTP ${res.status}`;
  });

  await run('auth', async () => {
    let res: Response;
    try {
      res = await fetch(apiRoot, {
        headers: { authorization: `Bearer ${target.token}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw httpFailure(error, https, timeoutMs);
    }
    const text = await res.text();
    if (res.status === 401) {
      throw new StepFailure(
        'Home Assistant rejected the token.',
        'In Home Assistant open your profile → Security → Long-lived access tokens, create a new token and paste all of it here. A deleted or mistyped token stops working.',
      );
    }
    if (!res.ok) {
      throw new StepFailure(
        `Home Assistant answered HTTP ${res.status}: ${text.slice(0, 200)}`,
        'Check the token and test again.',
      );
    }
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // plain text is fine for a detail
    }
    return `Token accepted: “${message.slice(0, 80)}”`;
  });

  let socket: WebSocket | null = null;
  await run('websocket', async () => {
    const opened = await openAuthenticatedSocket(websocketUrl(target.url), target.token, timeoutMs);
    socket = opened.socket;
    haVersion = opened.haVersion;
    return `Authenticated; Home Assistant ${opened.haVersion}`;
  });

  await run('registry', async () => {
    const ws = socket!;
    const [entities, devices, areas] = await Promise.all([
      command<unknown[]>(ws, 1, 'config/entity_registry/list', timeoutMs),
      command<unknown[]>(ws, 2, 'config/device_registry/list', timeoutMs),
      command<unknown[]>(ws, 3, 'config/area_registry/list', timeoutMs),
    ]);
    return `${entities.length} entities, ${devices.length} devices, ${areas.length} areas`;
  });
  (socket as WebSocket | null)?.terminate();

  // Keep the fixed order even if a step was never reached.
  steps.sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
  return { ok: !failed, steps, totalMs: round(performance.now() - started), haVersion };
}

function httpFailure(error: unknown, https: boolean, timeoutMs: number): StepFailure {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new StepFailure(
      `The HTTP request got no answer within ${timeoutMs / 1000} s.`,
      'Home Assistant accepted the connection but did not answer: it may be overloaded or starting. Wait and test again.',
    );
  }
  const code = errno(error);
  if (code && /CERT|SELF_SIGNED|TLS|SSL/.test(code)) {
    return new StepFailure(
      `The TLS certificate was not accepted (${code}).`,
      'Use a certificate from a public authority (for example via the Let’s Encrypt or Nabu Casa add-ons), or connect over the local http:// address instead.',
    );
  }
  if (code === 'ECONNRESET' || code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER') {
    return new StepFailure(
      `The connection broke during the HTTP request (${code}).`,
      https
        ? 'The server may not speak https on this port. Try http:// instead.'
        : 'The server may expect https on this port. Try https:// instead.',
    );
  }
  return new StepFailure(
    `The HTTP request failed${code ? ` (${code})` : ''}: ${(error as Error).message}.`,
    'Check the address of Home Assistant.',
  );
}

function openAuthenticatedSocket(
  url: string,
  token: string,
  timeoutMs: number,
): Promise<{ socket: WebSocket; haVersion: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
    let done = false;
    const fail = (failure: StepFailure) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.terminate();
      reject(failure);
    };
    const timer = setTimeout(
      () =>
        fail(
          new StepFailure(
            `The WebSocket handshake did not finish within ${timeoutMs / 1000} s.`,
            'A reverse proxy in front of Home Assistant must pass WebSocket upgrades (the Upgrade and Connection headers). Check its configuration.',
          ),
        ),
      timeoutMs,
    );
    socket.on('unexpected-response', (_req, res) => {
      fail(
        new StepFailure(
          `The server refused the WebSocket upgrade with HTTP ${res.statusCode}.`,
          res.statusCode === 404
            ? 'The address does not lead to Home Assistant’s /api/websocket. Use the address you open Home Assistant with in a browser.'
            : 'A reverse proxy in front of Home Assistant must pass WebSocket upgrades (the Upgrade and Connection headers). Check its configuration.',
        ),
      );
    });
    socket.on('error', (error) =>
      fail(
        new StepFailure(
          `The WebSocket connection failed: ${errno(error) ?? error.message}.`,
          'Check the address of Home Assistant.',
        ),
      ),
    );
    socket.on('close', () =>
      fail(
        new StepFailure(
          'Home Assistant closed the WebSocket during the handshake.',
          'Test again; if it repeats, check the Home Assistant log.',
        ),
      ),
    );
    socket.on('message', (raw) => {
      let message: { type?: string; ha_version?: string; message?: string };
      try {
        message = JSON.parse(raw.toString());
      } catch {
        fail(
          new StepFailure(
            'The server does not speak Home Assistant’s WebSocket API.',
            'Check that the address leads to Home Assistant.',
          ),
        );
        return;
      }
      if (message.type === 'auth_required') {
        socket.send(JSON.stringify({ type: 'auth', access_token: token }));
      } else if (message.type === 'auth_invalid') {
        fail(
          new StepFailure(
            `Home Assistant rejected the token on the WebSocket API (“${message.message ?? 'auth_invalid'}”).`,
            'Create a new long-lived access token in your Home Assistant profile → Security and paste it here.',
          ),
        );
      } else if (message.type === 'auth_ok') {
        if (done) return;
        done = true;
        clearTimeout(timer);
        socket.removeAllListeners('close');
        socket.removeAllListeners('message');
        socket.on('error', () => undefined);
        resolve({ socket, haVersion: message.ha_version ?? 'unknown' });
      }
    });
  });
}

function command<T>(socket: WebSocket, id: number, type: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('message', onMessage);
      reject(
        new StepFailure(
          `Home Assistant did not answer ${type} within ${timeoutMs / 1000} s.`,
          'Home Assistant may be overloaded. Test again.',
        ),
      );
    }, timeoutMs);
    const onMessage = (raw: WebSocket.RawData) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString());
      } catch {
        return;
      }
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
        const m = message as {
          id?: number;
          type?: string;
          success?: boolean;
          result?: T;
          error?: { code?: string; message?: string };
        };
        if (m.id !== id || m.type !== 'result') continue;
        clearTimeout(timer);
        socket.off('message', onMessage);
        if (m.success) {
          resolve(m.result as T);
        } else if (m.error?.code === 'unauthorized') {
          reject(
            new StepFailure(
              `Home Assistant refused ${type}: the token’s user is not an administrator.`,
              'Registry reads need an administrator. Create the long-lived access token while signed in to Home Assistant as an administrator.',
            ),
          );
        } else {
          reject(
            new StepFailure(
              `Home Assistant refused ${type}: ${m.error?.message ?? 'unknown error'}.`,
              'Check the Home Assistant log.',
            ),
          );
        }
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, type }));
  });
}
