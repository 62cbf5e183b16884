import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const VPN_TOOLS = new Set(['ip', 'wg', 'wg-quick', 'wireguard-go', 'tailscale', 'tailscaled']);

export interface PathWithoutVpnTools {
  /** A PATH for an agent: the system's programs without the VPN tools. */
  PATH: string;
  /** Removes the temporary directory. */
  remove(): void;
}

/**
 * A hub without the VPN tools: /usr/bin, /bin and friends as symlinks in a temporary directory,
 * leaving out `ip`, `wg`, `wireguard-go` and `tailscale`. An agent started with this PATH cannot
 * create interfaces on the test machine, and shows what a hub without WireGuard shows, whatever is
 * installed here.
 */
export function pathWithoutVpnTools(): PathWithoutVpnTools {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-no-vpn-'));
  for (const source of ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin']) {
    if (!fs.existsSync(source)) continue;
    for (const name of fs.readdirSync(source)) {
      if (VPN_TOOLS.has(name) || fs.existsSync(path.join(dir, name))) continue;
      fs.symlinkSync(path.join(source, name), path.join(dir, name));
    }
  }
  return { PATH: dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
