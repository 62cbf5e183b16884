import { X509Certificate, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { createLogger } from '../../lib/logger.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { hubNames, type HubNames } from './hub-names.js';
import { RENEW_BEFORE_MS, createTlsService } from './tls.service.js';
import { SERVER_LIFETIME_DAYS } from './x509.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the hub’s TLS certificate', () => {
  let dataDir: string;
  let handle: DbHandle;
  let names: HubNames;
  let clock: number;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-tls-'));
    handle = openDatabase(dataDir);
    names = {
      dnsNames: ['localhost', 'nexus', 'nexus.local'],
      ipAddresses: ['127.0.0.1', '::1', '192.0.2.7'],
    };
    clock = Date.now();
  });
  afterEach(() => {
    handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function service() {
    return createTlsService({
      dataDir,
      db: handle.db,
      secrets: createSecretBox(randomBytes(32)),
      log: createLogger('silent'),
      hostname: () => 'nexus',
      names: () => names,
      now: () => clock,
    });
  }

  const leaf = (s: ReturnType<typeof service>) => new X509Certificate(s.credentials().cert);

  it('is issued again when an address changes, and only then', async () => {
    const tls = service();
    const changes: string[] = [];
    tls.onChange((c) => changes.push(c.cert));
    await tls.start();
    const first = leaf(tls);
    expect(first.checkIP('192.0.2.7')).toBe('192.0.2.7');
    expect(await tls.refresh()).toBe(false);

    names = { ...names, ipAddresses: ['127.0.0.1', '::1', '192.0.2.8'] };
    expect(await tls.refresh()).toBe(true);
    const second = leaf(tls);
    expect(second.checkIP('192.0.2.8')).toBe('192.0.2.8');
    expect(second.checkIP('192.0.2.7')).toBeUndefined();
    expect(second.verify(new X509Certificate(tls.caPem()).publicKey)).toBe(true);
    expect(changes).toHaveLength(2);
  });

  it('is issued again before it expires, with the same CA', async () => {
    const tls = service();
    await tls.start();
    const ca = tls.caPem();
    const first = leaf(tls).fingerprint256;
    clock += (SERVER_LIFETIME_DAYS * DAY_MS - RENEW_BEFORE_MS) / 2;
    expect(await tls.refresh()).toBe(false);
    clock += (SERVER_LIFETIME_DAYS * DAY_MS - RENEW_BEFORE_MS) / 2 + DAY_MS;
    expect(await tls.refresh()).toBe(true);
    expect(leaf(tls).fingerprint256).not.toBe(first);
    expect(tls.caPem()).toBe(ca);
  });

  it('keeps the CA and certificate of an earlier start, and issues again for a host renamed meanwhile', async () => {
    const first = service();
    await first.start();
    const cert = first.credentials().cert;
    const again = service();
    await again.start();
    expect(again.credentials().cert).toBe(cert);
    expect(again.caPem()).toBe(first.caPem());

    names = hubNames('kitchen-hub', {});
    const renamed = service();
    await renamed.start();
    expect(leaf(renamed).checkHost('kitchen-hub.local')).toBe('kitchen-hub.local');
    expect(renamed.caPem()).toBe(first.caPem());
  });
});

describe('hubNames', () => {
  it('names localhost, the host and its .local name, every interface address and the loopbacks', () => {
    const found = hubNames('Kitchen-Hub', {
      eth0: [
        { address: '192.0.2.9', family: 'IPv4', internal: false } as os.NetworkInterfaceInfo,
        { address: 'FE80::1', family: 'IPv6', internal: false, scopeid: 2 } as os.NetworkInterfaceInfo,
      ],
    });
    expect(found.dnsNames).toEqual(['kitchen-hub', 'kitchen-hub.local', 'localhost']);
    expect(found.ipAddresses).toEqual(['127.0.0.1', '192.0.2.9', '::1', 'fe80::1']);
  });

  it('leaves out a host name that cannot be a DNS name', () => {
    expect(hubNames('bad_name!', {}).dnsNames).toEqual(['localhost']);
  });
});
