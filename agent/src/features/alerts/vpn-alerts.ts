import type { VpnStatus } from '../../contract/status.js';
import type { UplinkSummary } from '../vpn/index.js';
import type { IncidentNotifier } from './incidents.js';

export const VPN_INCIDENT_KEY = 'vpn:failover';

/**
 * VPN failover: the hub's traffic runs over the backup because the chosen one is down. Cleared when
 * the chosen one carries it again. A hub without a VPN has nothing to say.
 *
 * Two cases: the hub's own uplink monitor switched from the primary to the backup tunnel (both are
 * WireGuard, so the providers alone cannot tell), or the provider in use is not the chosen one.
 */
export function createVpnCheck(deps: {
  status: () => Promise<VpnStatus>;
  uplinks?: () => UplinkSummary;
  incidents: IncidentNotifier;
}) {
  return async function check(): Promise<void> {
    const uplinks = deps.uplinks?.();
    if (uplinks?.configured && uplinks.active !== 'none') {
      if (uplinks.active === 'backup') {
        deps.incidents.open(VPN_INCIDENT_KEY, {
          category: 'vpn',
          level: 'warning',
          title: 'The VPN failed over',
          body: 'The primary uplink stopped answering its probes; the hub uses the backup uplink instead.',
          link: '/connections',
        });
      } else {
        deps.incidents.clear(VPN_INCIDENT_KEY, {
          category: 'vpn',
          title: 'The VPN is back on the primary uplink',
          link: '/connections',
        });
      }
      return;
    }
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
