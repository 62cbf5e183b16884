import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { PLANS, type LicencePayload } from '../../contract/subscription.js';
import type { AuditInput } from '../audit/audit.service.js';
import { HttpError } from '../../lib/http-error.js';
import { createSubscriptionRepository } from './subscription.repository.js';
import { createSubscriptionService } from './subscription.service.js';
import { createLicencesRepository } from './licences.repository.js';
import { createLicenceService } from './licence.service.js';
import { signLicenceKey } from './licence-key.js';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 0, 20, 12);
const HUB = 'abcdefghijklmnopqrstuvwxyz';
const vendor = generateKeyPairSync('ed25519');

let dir: string;
let handle: DbHandle;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-lic-'));
  handle = openDatabase(dir);
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function setup(opts: { storeUrl?: string } = {}) {
  let clock = START;
  const events: AuditInput[] = [];
  const licenceRows = createLicencesRepository(handle.db);
  const subscription = createSubscriptionService({
    repository: createSubscriptionRepository(handle.db),
    usage: { messagesInMonth: () => 0 },
    hubId: () => HUB,
    licences: licenceRows,
    storeUrl: opts.storeUrl,
    now: () => clock,
  });
  subscription.ensureStarted();
  const licences = createLicenceService({
    licences: licenceRows,
    subscription,
    publicKey: vendor.publicKey,
    hubId: () => HUB,
    audit: { record: (e) => events.push(e) },
    now: () => clock,
  });
  const key = (over: Partial<LicencePayload> = {}) =>
    signLicenceKey(
      {
        lid: 'lic-1',
        hub: HUB,
        plan: 'max',
        iat: Math.floor(clock / 1000),
        exp: Math.floor((clock + 30 * DAY) / 1000),
        ...over,
      },
      vendor.privateKey,
    );
  return { subscription, licences, key, events, advance: (ms: number) => (clock += ms), at: () => clock };
}

function refusal(fn: () => unknown): { status: number; message: string; details: unknown } {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, message: err.message, details: err.details };
    throw err;
  }
  throw new Error('not refused');
}

describe('licence activation', () => {
  it('puts the licence’s plan in force, with its record and an audit event', () => {
    const { licences, key, events } = setup();
    const k = key({ seats: 2 });
    const answer = licences.activate(k);
    expect(answer.status).toMatchObject({
      plan: 'max',
      status: 'active',
      limits: PLANS.max.limits,
      licence: {
        lid: 'lic-1',
        plan: 'max',
        expiresAt: new Date(START + 30 * DAY).toISOString(),
        graceEndsAt: null,
        inGrace: false,
      },
    });
    expect(answer.licence).toMatchObject({
      lid: 'lic-1',
      hub: HUB,
      seats: 2,
      state: 'in-force',
      key: k,
      deactivatedAt: null,
    });
    expect(events).toEqual([
      {
        type: 'licence_activated',
        target: 'lic-1',
        details: { plan: 'max', expiresAt: answer.licence.expiresAt },
      },
    ]);
  });

  it('is idempotent for the same key: one record, one audit event', () => {
    const { licences, key, events, advance } = setup();
    const k = key();
    const first = licences.activate(k);
    advance(1000);
    const again = licences.activate(`${k}\n`);
    expect(again.licence).toEqual(first.licence);
    expect(licences.history({ admin: true }).licences).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it('answers refusals with their reason: 400 malformed, 422 otherwise', () => {
    const { licences, key } = setup();
    expect(refusal(() => licences.activate('garbage'))).toMatchObject({
      status: 400,
      details: { reason: 'malformed' },
    });
    expect(refusal(() => licences.activate('x'.repeat(100_000)))).toMatchObject({
      status: 400,
      details: { reason: 'malformed' },
    });
    expect(refusal(() => licences.activate(key({ hub: 'otherhubotherhubotherhubot' })))).toMatchObject({
      status: 422,
      message: `This key is for another hub (hub id otherhubotherhubotherhubot); this hub’s id is ${HUB}.`,
      details: { reason: 'another-hub', keyHubId: 'otherhubotherhubotherhubot', hubId: HUB },
    });
    expect(refusal(() => licences.activate(key({ exp: Math.floor(START / 1000) - 1 })))).toMatchObject({
      status: 422,
      details: { reason: 'expired' },
    });
  });
});

describe('the plan in force from the licence', () => {
  it('keeps the plan for 14 days of grace after expiry, then falls back to Free', () => {
    const { subscription, licences, key, advance } = setup();
    licences.activate(key({ plan: 'pro', exp: Math.floor((START + 30 * DAY) / 1000) }));
    expect(subscription.inForce().period).toEqual({ kind: 'licence', endsAt: START + 30 * DAY });

    advance(30 * DAY); // the licence expires: grace
    expect(subscription.status()).toMatchObject({
      plan: 'pro',
      status: 'active',
      licence: { inGrace: true, graceEndsAt: new Date(START + 44 * DAY).toISOString() },
    });
    expect(subscription.inForce().period).toEqual({ kind: 'licence', endsAt: START + 44 * DAY });
    expect(licences.history({ admin: false }).licences[0]!.state).toBe('grace');

    advance(14 * DAY - 1); // the last millisecond of grace
    expect(subscription.status()).toMatchObject({ plan: 'pro', licence: { inGrace: true } });
    advance(1); // past the grace; the trial ended long ago
    expect(subscription.status()).toMatchObject({
      plan: 'free',
      status: 'expired',
      licence: null,
      limits: PLANS.free.limits,
    });
    expect(licences.history({ admin: false }).licences[0]!.state).toBe('expired');
  });

  it('deactivating returns to the trial while it runs, else to Free', () => {
    const { subscription, licences, key, advance, events } = setup();
    licences.activate(key());
    expect(licences.deactivate()).toMatchObject({ plan: 'pro', status: 'trialing', licence: null });
    expect(events.map((e) => e.type)).toEqual(['licence_activated', 'licence_deactivated']);
    expect(refusal(() => licences.deactivate())).toMatchObject({ status: 404 });

    advance(20 * DAY); // the trial is over
    licences.activate(key({ lid: 'lic-2' }));
    expect(subscription.status().plan).toBe('max');
    expect(licences.deactivate()).toMatchObject({ plan: 'free', status: 'expired', licence: null });
  });

  it('a new licence replaces the one before; deactivating it does not bring the old one back', () => {
    const { subscription, licences, key, advance } = setup();
    licences.activate(key({ lid: 'pro-1', plan: 'pro' }));
    advance(DAY);
    licences.activate(key({ lid: 'max-1', plan: 'max' }));
    expect(licences.history({ admin: true }).licences.map((l) => [l.lid, l.state])).toEqual([
      ['max-1', 'in-force'],
      ['pro-1', 'replaced'],
    ]);
    licences.deactivate();
    expect(subscription.status().licence).toBeNull();
    // Activated again, the old key is in force again.
    advance(DAY);
    licences.activate(key({ lid: 'pro-1', plan: 'pro' }));
    expect(subscription.status()).toMatchObject({ plan: 'pro', licence: { lid: 'pro-1' } });
    expect(licences.history({ admin: true }).licences.map((l) => [l.lid, l.state])).toEqual([
      ['pro-1', 'in-force'],
      ['max-1', 'deactivated'],
    ]);
  });

  it('keeps a plan paid before licences until paidUntil', () => {
    const { subscription, advance } = setup();
    createSubscriptionRepository(handle.db).setPaidPlan('max', new Date(START + 40 * DAY), new Date(START));
    expect(subscription.status()).toMatchObject({ plan: 'max', status: 'active', licence: null });
    expect(subscription.inForce().period).toEqual({ kind: 'licence', endsAt: START + 40 * DAY });
    advance(41 * DAY);
    expect(subscription.status()).toMatchObject({ plan: 'free', status: 'expired' });
  });
});

describe('history and receipts', () => {
  it('gives members the plan and dates without the key', () => {
    const { licences, key } = setup();
    const k = key();
    licences.activate(k);
    expect(licences.history({ admin: true }).licences[0]!.key).toBe(k);
    const member = licences.history({ admin: false }).licences[0]!;
    expect(member).not.toHaveProperty('key');
    expect(JSON.stringify(member)).not.toContain(k.split('.')[2]);
  });

  it('writes a receipt with the plan, hub, dates, licence id and key; 404 for an unknown id', () => {
    const { licences, key } = setup();
    const k = key({ lid: 'order/42 "x"' });
    licences.activate(k);
    const receipt = licences.receipt('order/42 "x"');
    expect(receipt.fileName).toBe('nexus-licence-order_42__x_.txt');
    expect(receipt.text).toContain('Plan:        Max');
    expect(receipt.text).toContain(`Hub id:      ${HUB}`);
    expect(receipt.text).toContain(`Activated:   ${new Date(START).toISOString()}`);
    expect(receipt.text).toContain(k);
    expect(refusal(() => licences.receipt('nope'))).toMatchObject({ status: 404 });
  });

  it('names the store with this hub’s id', () => {
    expect(setup({ storeUrl: 'https://store.example/buy?ref=hub' }).subscription.status().storeUrl).toBe(
      `https://store.example/buy?ref=hub&hub=${HUB}`,
    );
  });
});
