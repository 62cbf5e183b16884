import { describe, expect, it } from 'vitest';
import { httpsAddress } from './tls';

describe('httpsAddress', () => {
  it('keeps the name and path, adds the HTTPS port unless it is 443, and brackets IPv6', () => {
    expect(httpsAddress({ hostname: 'nexus.local', pathname: '/mic-test' }, 8443)).toBe(
      'https://nexus.local:8443/mic-test',
    );
    expect(httpsAddress({ hostname: '192.168.1.5', pathname: '/' }, 443)).toBe('https://192.168.1.5/');
    expect(httpsAddress({ hostname: '[fd00::5]', pathname: '/' }, 8443)).toBe('https://[fd00::5]:8443/');
    expect(httpsAddress({ hostname: 'nexus.local', pathname: '/' }, null)).toBeNull();
  });
});
