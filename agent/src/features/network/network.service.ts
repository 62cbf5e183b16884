import { TAILSCALE_NOT_RUNNING, type NetworkPage, type TailscaleInfo } from '../../contract/network.js';
import type { NetworkInfo } from '../../contract/system.js';
import type { VpnAdapter } from '../../adapters/vpn.js';
import type { Logger } from '../../lib/logger.js';

/** The network screen polls; tailscaled is asked at most this often. */
const TAILSCALE_TTL_MS = 5000;

/**
 * GET /api/network/info: the metrics service's network reading (the same as /api/system/network,
 * Wi-Fi links included) and Tailscale's state from tailscaled's LocalAPI.
 */
export function createNetworkService(deps: {
  network: () => Promise<NetworkInfo>;
  vpn: Pick<VpnAdapter, 'tailscale'>;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let cached: { at: number; value: TailscaleInfo } | null = null;

  async function tailscale(): Promise<TailscaleInfo> {
    if (cached && now() - cached.at < TAILSCALE_TTL_MS) return cached.value;
    let value: TailscaleInfo;
    try {
      const state = await deps.vpn.tailscale();
      value = state
        ? { running: true, message: null, state }
        : { running: false, message: TAILSCALE_NOT_RUNNING, state: null };
    } catch (err) {
      deps.log.warn({ err }, 'reading Tailscale failed');
      value = {
        running: false,
        message: `Tailscale could not be read: ${err instanceof Error ? err.message : String(err)}`,
        state: null,
      };
    }
    cached = { at: now(), value };
    return value;
  }

  return {
    async info(): Promise<NetworkPage> {
      const [network, ts] = await Promise.all([deps.network(), tailscale()]);
      return { ...network, wifi: network.wifi ?? [], tailscale: ts };
    },
  };
}

export type NetworkService = ReturnType<typeof createNetworkService>;
