import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  classifyAddress,
  createOutboundGuard,
  OutboundRefusedError,
  type OutboundLookup,
} from './outbound-guard.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['172.32.0.1', null],
    ['2606:4700::1111', null],
    ['64:ff9b::808:808', null], // NAT64 of 8.8.8.8
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    // IPv6 forms that carry an IPv4 address are judged by that address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated (RFC 6145)
    ['::7f00:1', 'loopback'], // IPv4-compatible (deprecated)
    ['64:ff9b::7f00:1', 'loopback'], // NAT64
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b:1::1', 'reserved'], // local-use NAT64
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
    ['2001::1', 'reserved'], // Teredo
    ['not an address', 'reserved'],
  ])('%s → %s', (address, reason) => {
    expect(classifyAddress(address)).toBe(reason);
  });
});

/** A guard whose lookup and socket opener are spies: nothing is resolved or dialled for real. */
function guardWith(allowList: string[], answers: Record<string, string[]> = {}) {
  const lookup = vi.fn<OutboundLookup>(async (hostname) => {
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  });
  const dialled: string[] = [];
  const connector = vi.fn<buildConnector.connector>((options, callback) => {
    dialled.push(options.hostname);
    callback(new Error('test connector: not dialling'), null);
  });
  const guard = createOutboundGuard({ allowList: () => allowList, lookup, connector });
  const get = (url: string) =>
    guard.fetch(new URL(url), { method: 'GET', headers: {} }, async (response) => response.status);
  return { guard, lookup, connector, dialled, get };
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRefusedError> {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  let e = error;
  while (e instanceof Error && !(e instanceof OutboundRefusedError) && e.cause) e = e.cause;
  if (!(e instanceof OutboundRefusedError)) throw error;
  return e;
}

describe('the outbound guard refuses before any socket is opened', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'], // decimal
    ['http://0x7f.1/', 'loopback'], // hex, short form
    ['http://0177.0.0.1/', 'loopback'], // octal
    ['http://127.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[64:ff9b::7f00:1]/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.0.0.1/', 'private'],
    ['http://192.168.1.1/admin', 'private'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['http://METADATA.google.internal./', 'metadata'],
    ['http://localhost:8080/', 'local-name'],
    ['http://foo.localhost/', 'local-name'],
  ])('%s (%s)', async (url, reason) => {
    const { get, lookup, connector } = guardWith([]);
    const error = await refusal(get(url));
    expect(error.reason).toBe(reason);
    // Literal addresses and these names are never looked up, and nothing is dialled.
    expect(lookup).not.toHaveBeenCalled();
    expect(connector).not.toHaveBeenCalled();
  });

  it('a name that resolves to a private address is refused after DNS (rebinding), and never dialled', async () => {
    const { get, lookup, connector } = guardWith([], { 'rebind.example.com': ['127.0.0.1'] });
    const error = await refusal(get('http://rebind.example.com:8080/'));
    expect(error.reason).toBe('loopback');
    expect(error.message).toContain('rebind.example.com:8080');
    expect(error.message).toContain('127.0.0.1');
    expect(error.message).toContain('an admin can allow "rebind.example.com:8080"');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(connector).not.toHaveBeenCalled();
  });

  it('the socket goes to the checked address, not to a second lookup; refused answers are skipped', async () => {
    const { get, lookup, dialled } = guardWith([], {
      'mixed.example.com': ['10.0.0.5', '93.184.216.34', '127.0.0.1'],
    });
    // The test connector refuses to dial, so the fetch fails; what matters is where it would have gone.
    await expect(get('http://mixed.example.com/')).rejects.toThrow();
    expect(dialled).toEqual(['93.184.216.34']);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('a metadata address is refused even when a name on the allow-list resolves to it', async () => {
    const { get, connector } = guardWith(['sneaky.example.com:80', '169.254.0.0/16:80'], {
      'sneaky.example.com': ['169.254.169.254'],
    });
    expect((await refusal(get('http://sneaky.example.com/'))).reason).toBe('metadata');
    expect((await refusal(get('http://169.254.169.254/'))).reason).toBe('metadata');
    expect(connector).not.toHaveBeenCalled();
  });
});

describe('the allow-list', () => {
  it('opens exactly host:port, cidr:port, IPv6 and IPv4-mapped forms', async () => {
    const { guard } = guardWith(
      ['printer.local:631', '192.168.1.0/24:8123', '[fd00::20]:80', '127.0.0.1:9000', 'localhost:3000'],
      { 'printer.local': ['192.168.1.50'], 'nas.local': ['192.168.3.9'], localhost: ['127.0.0.1'] },
    );
    await expect(guard.resolve('printer.local', 631)).resolves.toMatchObject({ address: '192.168.1.50' });
    await expect(guard.resolve('PRINTER.local.', 631)).resolves.toMatchObject({ address: '192.168.1.50' });
    await expect(guard.resolve('printer.local', 80)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.resolve('192.168.1.20', 8123)).resolves.toMatchObject({ address: '192.168.1.20' });
    await expect(guard.resolve('::ffff:192.168.1.20', 8123)).resolves.toBeTruthy();
    await expect(guard.resolve('192.168.2.20', 8123)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.resolve('fd00::20', 80)).resolves.toBeTruthy();
    await expect(guard.resolve('fd00::21', 80)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.resolve('127.0.0.1', 9000)).resolves.toBeTruthy();
    await expect(guard.resolve('127.0.0.1', 9001)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.resolve('localhost', 3000)).resolves.toMatchObject({ address: '127.0.0.1' });
    // A name is judged by what it resolves to: inside an allowed range it passes, outside it does not.
    await expect(guard.resolve('printer.local', 8123)).resolves.toBeTruthy();
    await expect(guard.resolve('nas.local', 8123)).rejects.toBeInstanceOf(OutboundRefusedError);
  });
});

/** Loopback servers; the guard dials them for real (test traffic stays on 127.0.0.1). */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
function server(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const srv = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    handler(req, res);
  });
  return {
    seen,
    srv,
    get port() {
      return (srv.address() as AddressInfo).port;
    },
  };
}

describe('redirects, hop by hop', () => {
  const target = server((_req, res) => res.end('target'));
  const other = server((_req, res) => res.end('other'));
  const start = server((req, res) => {
    const to = new URL(req.url!, 'http://x').searchParams.get('to');
    if (req.url!.startsWith('/loop')) {
      res.writeHead(302, { location: `/loop${req.url!.length}` }).end();
    } else if (to) {
      res.writeHead(req.url!.startsWith('/see-other') ? 303 : 302, { location: to }).end();
    } else res.end('start');
  });

  beforeAll(async () => {
    for (const s of [target, other, start]) await new Promise<void>((r) => s.srv.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of [target, other, start]) await new Promise<void>((r) => s.srv.close(() => r()));
  });

  const allowing = (...ports: number[]) =>
    createOutboundGuard({ allowList: () => ports.map((p) => `127.0.0.1:${p}`) });
  const text = (response: { text(): Promise<string> }) => response.text();

  it('a hop to an address that is not allowed is refused at the hop, and never reached', async () => {
    const guard = allowing(start.port);
    const before = other.seen.length;
    const url = new URL(`http://127.0.0.1:${start.port}/go?to=http://127.0.0.1:${other.port}/secret`);
    const error = await refusal(guard.fetch(url, { method: 'GET', headers: {} }, text));
    expect(error.reason).toBe('loopback');
    expect(error.target.port).toBe(other.port);
    expect(other.seen.length).toBe(before);
  });

  it('a hop to another origin drops Authorization and Cookie; the same origin keeps them', async () => {
    const guard = allowing(start.port, target.port);
    const headers = { authorization: 'Bearer tok', cookie: 'a=b', 'x-plain': 'kept' };
    const cross = new URL(`http://127.0.0.1:${start.port}/go?to=http://127.0.0.1:${target.port}/t`);
    expect(await guard.fetch(cross, { method: 'GET', headers }, text)).toBe('target');
    const last = target.seen.at(-1)!;
    expect(last.headers.authorization).toBeUndefined();
    expect(last.headers.cookie).toBeUndefined();
    expect(last.headers['x-plain']).toBe('kept');

    const same = new URL(`http://127.0.0.1:${start.port}/go?to=/home`);
    expect(await guard.fetch(same, { method: 'GET', headers }, text)).toBe('start');
    expect(start.seen.at(-1)).toMatchObject({ url: '/home', headers: { authorization: 'Bearer tok' } });
  });

  it('303 after a POST goes on as a GET without the body', async () => {
    const guard = allowing(start.port, target.port);
    const url = new URL(`http://127.0.0.1:${start.port}/see-other?to=http://127.0.0.1:${target.port}/r`);
    await guard.fetch(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      text,
    );
    expect(start.seen.at(-1)).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(target.seen.at(-1)).toMatchObject({ method: 'GET', body: '' });
    expect(target.seen.at(-1)!.headers['content-type']).toBeUndefined();
  });

  it('stops after 5 hops', async () => {
    const guard = allowing(start.port);
    const before = start.seen.length;
    const url = new URL(`http://127.0.0.1:${start.port}/loop`);
    await expect(guard.fetch(url, { method: 'GET', headers: {} }, text)).rejects.toThrow(
      /redirected more than 5 times/,
    );
    expect(start.seen.length - before).toBe(6);
  });
});
