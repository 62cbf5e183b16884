import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';

describe('loadEnv: the names and proxies the hub trusts', () => {
  it('reads NEXUS_ALLOWED_HOSTS as a list', () => {
    expect(
      loadEnv({ NEXUS_ALLOWED_HOSTS: ' nexus.example.org, *.house.example ,' }).NEXUS_ALLOWED_HOSTS,
    ).toEqual(['nexus.example.org', '*.house.example']);
    expect(loadEnv({}).NEXUS_ALLOWED_HOSTS).toEqual([]);
  });

  it('takes IPs and CIDRs in NEXUS_TRUSTED_PROXIES, which imply NEXUS_TRUST_PROXY', () => {
    const env = loadEnv({ NEXUS_TRUSTED_PROXIES: '127.0.0.1, 172.18.0.0/16, fd00::/8' });
    expect(env.NEXUS_TRUSTED_PROXIES).toEqual(['127.0.0.1', '172.18.0.0/16', 'fd00::/8']);
    expect(env.NEXUS_TRUST_PROXY).toBe(true);
    expect(loadEnv({}).NEXUS_TRUST_PROXY).toBe(false);
    expect(loadEnv({ NEXUS_TRUST_PROXY: 'true' }).NEXUS_TRUST_PROXY).toBe(true);
  });

  it.each(['proxy.lan', '10.0.0.0/33', '10.0.0.0/8/1', 'fd00::/129', '10.0.0.1/x'])(
    'refuses to start with %s in NEXUS_TRUSTED_PROXIES',
    (entry) => {
      expect(() => loadEnv({ NEXUS_TRUSTED_PROXIES: entry })).toThrow(/NEXUS_TRUSTED_PROXIES/);
    },
  );
});

describe('loadEnv: HTTPS_PORT (issue 21)', () => {
  it('is 8443 unless set, takes 0 (a free port) and 443, and refuses anything else', () => {
    expect(loadEnv({}).HTTPS_PORT).toBe(8443);
    expect(loadEnv({ HTTPS_PORT: '0' }).HTTPS_PORT).toBe(0);
    expect(loadEnv({ HTTPS_PORT: '443' }).HTTPS_PORT).toBe(443);
    for (const bad of ['https', '65536', '-1', '8443.5']) {
      expect(() => loadEnv({ HTTPS_PORT: bad }), bad).toThrow(/HTTPS_PORT/);
    }
  });
});
