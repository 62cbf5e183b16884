import { describe, expect, it } from 'vitest';
import { isLocalAddress } from './address-class.js';

describe('isLocalAddress', () => {
  it.each([
    '127.0.0.1',
    '127.9.8.7',
    '::1',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.20',
    '169.254.10.10',
    '100.64.0.1',
    '100.127.255.254',
    'fd7a:115c:a1e0::1',
    'fc00::5',
    'fe80::1',
    'fe80::1%eth0',
    '::ffff:192.168.1.5',
    '::FFFF:10.1.2.3',
  ])('%s is local', (address) => {
    expect(isLocalAddress(address)).toBe(true);
  });

  it.each([
    '203.0.113.9',
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '100.63.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '2001:db8::1',
    '2606:4700::1111',
    '::ffff:203.0.113.9',
    'unknown',
    '',
    'localhost',
    '10.0.0.1.evil.example',
  ])('%s is not local', (address) => {
    expect(isLocalAddress(address)).toBe(false);
  });
});
