import type { VpnStatus } from '../../contract/status.js';
import type { IncidentNotifier } from './incidents.js';

export const VPN_INCIDENT_KEY = 'vpn:failover';

/**
 * VPN failover: the hub's traffic runs over the backup provider because the chosen one is down.
 * Cleared when the chosen provider carries it again. A hub without a VPN has nothing to say.
 */
export function createVpnCheck(deps: { status: () => Promise<VpnStatus>; incidents: IncidentNotifier }) {
  return async function check(): Promise<void> {
    const s = await deps.status();
    const chosen = s.failover.activeProvider;
    if (chosen === 'none' || s.provider === 'none') return;
    if (s.provider !== chosen) {
      deps.incidents.open(VPN_INCIDENT_KEY, {
        category: 'vpn',
        level: 'warning',
        title: 'The VPN failed over',
        body: `${chosen} is down; the hub uses ${s.provider} instead.`,
        link: '/connections',
      });
    } else {
      deps.incidents.clear(VPN_INCIDENT_KEY, {
        category: 'vpn',
        title: `The VPN is back on ${chosen}`,
        link: '/connections',
      });
    }
  };
}
