import type { KeyObject } from 'node:crypto';
import type {
  LicenceActivated,
  LicenceHistory,
  LicencePayload,
  LicenceRecord,
} from '../../contract/subscription.js';
import type { AuditRecorder } from '../audit/index.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { checkLicenceKey, licenceReceipt } from './licence-key.js';
import type { LicencesRepository } from './licences.repository.js';
import { licenceState, type SubscriptionService } from './subscription.service.js';
import type { LicenceRow } from './subscription.table.js';

/**
 * Activating and deactivating licence keys (issue 22). A plan change only changes what the hub
 * allows from now on: nothing here, or anywhere a plan is read, deletes data.
 */
export function createLicenceService(deps: {
  licences: LicencesRepository;
  subscription: SubscriptionService;
  /** The vendor's public key the keys are checked against. */
  publicKey: KeyObject;
  hubId: () => string;
  audit: AuditRecorder;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;

  function record(row: LicenceRow, latest: LicenceRow | undefined, withKey: boolean): LicenceRecord {
    return {
      lid: row.lid,
      plan: row.plan,
      hub: row.hubId,
      issuedAt: row.issuedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      notBefore: row.notBefore?.toISOString() ?? null,
      seats: row.seats,
      activatedAt: row.activatedAt.toISOString(),
      deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
      state: licenceState(row, latest, now()),
      ...(withKey ? { key: row.key } : {}),
    };
  }

  function payloadOf(row: LicenceRow): LicencePayload {
    return {
      lid: row.lid,
      hub: row.hubId,
      plan: row.plan,
      iat: Math.floor(row.issuedAt.getTime() / 1000),
      exp: Math.floor(row.expiresAt.getTime() / 1000),
      ...(row.notBefore ? { nbf: Math.floor(row.notBefore.getTime() / 1000) } : {}),
      ...(row.seats !== null ? { seats: row.seats } : {}),
    };
  }

  return {
    /**
     * Checks the key offline and makes it the licence in force. The same key again changes nothing
     * (a double click, the activation link opened twice); a deactivated licence may be activated again.
     */
    activate(key: string): LicenceActivated {
      const at = now();
      const check = checkLicenceKey(key, { publicKey: deps.publicKey, hubId: deps.hubId(), now: at });
      if (!check.ok)
        throw new HttpError(check.reason === 'malformed' ? 400 : 422, check.message, {
          reason: check.reason,
          ...check.facts,
        });
      const { payload } = check;
      const existing = deps.licences.get(payload.lid);
      const latest = deps.licences.latest();
      const unchanged =
        existing && !existing.deactivatedAt && latest?.lid === existing.lid && existing.key === keyOf(key);
      const row = unchanged ? existing : deps.licences.activate(payload, keyOf(key), new Date(at));
      if (!unchanged)
        deps.audit.record({
          type: 'licence_activated',
          target: payload.lid,
          details: { plan: payload.plan, expiresAt: row.expiresAt.toISOString() },
        });
      return { status: deps.subscription.status(), licence: record(row, row, true) };
    },

    /** Ends the licence in force: the hub returns to the trial if it still runs, else to Free. */
    deactivate(): LicenceActivated['status'] {
      const latest = deps.licences.latest();
      if (!latest || latest.deactivatedAt) throw notFound('No licence is active on this hub.');
      deps.licences.deactivate(latest.lid, new Date(now()));
      deps.audit.record({ type: 'licence_deactivated', target: latest.lid, details: { plan: latest.plan } });
      return deps.subscription.status();
    },

    /** Every licence activated on this hub, newest first; only admins get the keys themselves. */
    history(viewer: { admin: boolean }): LicenceHistory {
      const rows = deps.licences.list();
      const latest = rows[0];
      return { licences: rows.map((row) => record(row, latest, viewer.admin)) };
    },

    /** A licence's receipt as a text file: plan, hub, dates, licence id and the key. */
    receipt(lid: string): { fileName: string; text: string } {
      const row = deps.licences.get(lid);
      if (!row) throw notFound('No licence with this id was activated on this hub.');
      return {
        fileName: `nexus-licence-${row.lid.replace(/[^A-Za-z0-9._-]/g, '_')}.txt`,
        text: licenceReceipt(payloadOf(row), row.key, row.activatedAt),
      };
    },
  };
}

/** The key as stored: without the whitespace a licence file or a mail client may add. */
function keyOf(key: string): string {
  return key.replace(/\s+/g, '');
}

export type LicenceService = ReturnType<typeof createLicenceService>;
