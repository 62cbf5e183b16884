import os from 'node:os';

/** The names and addresses the hub's certificate must carry for every way the household opens it. */
export interface HubNames {
  dnsNames: string[];
  ipAddresses: string[];
}

/**
 * `localhost`, the host name and its mDNS name, and every address of the machine's interfaces
 * (IPv4 and IPv6, link-local included: a phone may open `https://[fe80::…]`), plus the loopback
 * addresses. Sorted and deduplicated, so two readings compare equal exactly when the names did not change.
 */
export function hubNames(
  hostname: string,
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): HubNames {
  const dns = new Set(['localhost']);
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  // A host name that is not a DNS label (odd container ids, spaces) cannot be in a certificate.
  if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) {
    dns.add(host);
    if (!host.endsWith('.local')) dns.add(`${host.split('.')[0]}.local`);
  }
  const ips = new Set(['127.0.0.1', '::1']);
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) ips.add(entry.address.toLowerCase());
  }
  return { dnsNames: [...dns].sort(), ipAddresses: [...ips].sort() };
}

export function sameNames(a: HubNames, b: HubNames): boolean {
  return a.dnsNames.join(',') === b.dnsNames.join(',') && a.ipAddresses.join(',') === b.ipAddresses.join(',');
}
