import { desc } from 'drizzle-orm';
import type { VpnEvent } from '../../contract/wireguard.js';
import type { Db } from '../../db/client.js';
import { vpnEvents } from './wireguard.table.js';

/** The VPN's history (issue 17): every failover, failback, uplink and server change, kept and published live. */
export function createVpnEventLog(deps: { db: Db; publish?: (event: VpnEvent) => void; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    record(kind: VpnEvent['kind'], from: string | null, to: string | null, detail: string): VpnEvent {
      const row = deps.db
        .insert(vpnEvents)
        .values({ at: new Date(now()), kind, from, to, detail })
        .returning()
        .get();
      const event: VpnEvent = { ...row, at: row.at.toISOString() };
      deps.publish?.(event);
      return event;
    },
    list(limit = 200): VpnEvent[] {
      return deps.db
        .select()
        .from(vpnEvents)
        .orderBy(desc(vpnEvents.id))
        .limit(limit)
        .all()
        .map((r) => ({ ...r, at: r.at.toISOString() }));
    },
  };
}
export type VpnEventLog = ReturnType<typeof createVpnEventLog>;
