import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import {
  LICENCE_KEY_PREFIX,
  MAX_LICENCE_KEY_LENGTH,
  licencePayloadSchema,
  type LicencePayload,
  type LicenceRefusal,
} from '../../contract/subscription.js';

/**
 * Licence keys (issue 22): `NXL1.<payload>.<signature>`, where <payload> is the base64url of the
 * JSON payload and <signature> the base64url Ed25519 signature of the ASCII text `NXL1.<payload>`.
 * The hub checks them offline with the vendor's public key; nothing here calls anyone.
 */

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ED25519_SIGNATURE_BYTES = 64;

export interface LicenceRefused {
  ok: false;
  reason: LicenceRefusal;
  /** In words, for the person who pasted the key. */
  message: string;
  /** Particulars for the answer's `details` besides the reason (never the key itself). */
  facts?: Record<string, string>;
}
export type LicenceCheck = { ok: true; payload: LicencePayload } | LicenceRefused;

/** Turns a PEM (SPKI) into an Ed25519 public key; throws a message in words for anything else. */
export function ed25519PublicKey(pem: string): KeyObject {
  // createPublicKey would also take a private key (and derive its public half): refuse one, it never belongs on a hub.
  if (!pem.includes('-----BEGIN PUBLIC KEY-----'))
    throw new Error('is not a public key in PEM form (-----BEGIN PUBLIC KEY----- …)');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new Error('is not a public key in PEM form (-----BEGIN PUBLIC KEY----- …)');
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`is a ${key.asymmetricKeyType ?? 'unknown'} key; licence keys are signed with Ed25519`);
  return key;
}

/**
 * Checks a key for this hub at `now` (ms). The order matters: the signature is checked before the
 * payload is read, so a changed key is "bad signature" whatever the change did to its JSON.
 */
export function checkLicenceKey(
  input: string,
  opts: { publicKey: KeyObject; hubId: string; now: number },
): LicenceCheck {
  // A licence file may end with a newline or be wrapped by a mail client: whitespace is not part of a key.
  const key = input.length > MAX_LICENCE_KEY_LENGTH * 2 ? input : input.replace(/\s+/g, '');
  if (key.length === 0 || key.length > MAX_LICENCE_KEY_LENGTH)
    return malformed(`A licence key is at most ${MAX_LICENCE_KEY_LENGTH} characters; this is not one.`);
  const parts = key.split('.');
  if (parts[0] !== LICENCE_KEY_PREFIX)
    return malformed(`This is not a Nexus licence key: a key starts with "${LICENCE_KEY_PREFIX}.".`);
  if (parts.length !== 3)
    return malformed(
      'This licence key is incomplete or has extra parts: it has three parts separated by dots.',
    );
  const [, payloadText = '', signatureText = ''] = parts;
  if (!BASE64URL.test(payloadText) || !BASE64URL.test(signatureText))
    return malformed('This licence key contains characters a key never has: copy it again in full.');
  const signature = Buffer.from(signatureText, 'base64url');
  if (signature.length !== ED25519_SIGNATURE_BYTES)
    return malformed('This licence key’s signature is cut short: copy the key again in full.');

  const signed = Buffer.from(`${LICENCE_KEY_PREFIX}.${payloadText}`, 'ascii');
  if (!verify(null, signed, opts.publicKey, signature))
    return {
      ok: false,
      reason: 'bad-signature',
      message:
        'This licence key’s signature does not match: it was changed after it was issued, or it was not issued by the vendor of this hub.',
    };

  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payloadText, 'base64url').toString('utf8'));
  } catch {
    return malformed(
      'This licence key is signed but its contents cannot be read: ask the vendor for a new one.',
    );
  }
  const parsed = licencePayloadSchema.safeParse(json);
  if (!parsed.success)
    return malformed(
      'This licence key is signed but its contents are not a licence: ask the vendor for a new one.',
    );
  const payload = parsed.data;

  if (payload.hub !== opts.hubId)
    return {
      ok: false,
      reason: 'another-hub',
      message: `This key is for another hub (hub id ${payload.hub}); this hub’s id is ${opts.hubId}.`,
      facts: { keyHubId: payload.hub, hubId: opts.hubId },
    };
  if (payload.nbf !== undefined && opts.now < payload.nbf * 1000) {
    const validFrom = iso(payload.nbf);
    return {
      ok: false,
      reason: 'not-yet-valid',
      message: `This licence key is valid from ${validFrom}; activate it then.`,
      facts: { validFrom },
    };
  }
  if (opts.now >= payload.exp * 1000) {
    const expiredAt = iso(payload.exp);
    return {
      ok: false,
      reason: 'expired',
      message: `This licence key expired on ${expiredAt}: renew it at the vendor’s store.`,
      facts: { expiredAt },
    };
  }
  return { ok: true, payload };
}

function malformed(message: string): LicenceRefused {
  return { ok: false, reason: 'malformed', message };
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** Makes a key: the vendor's tool (scripts/licence.ts) and tests use it; the hub itself never signs. */
export function signLicenceKey(payload: LicencePayload, privateKey: KeyObject): string {
  const payloadText = Buffer.from(JSON.stringify(licencePayloadSchema.parse(payload)), 'utf8').toString(
    'base64url',
  );
  const signed = `${LICENCE_KEY_PREFIX}.${payloadText}`;
  return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKey).toString('base64url')}`;
}

/** The human receipt of a licence: what the vendor's tool prints and what the hub lets admins download. */
export function licenceReceipt(payload: LicencePayload, key: string, activatedAt?: Date): string {
  const lines = [
    'Nexus licence receipt',
    '',
    `Licence id:  ${payload.lid}`,
    `Plan:        ${payload.plan === 'max' ? 'Max' : 'Pro'}`,
    `Hub id:      ${payload.hub}`,
    `Issued:      ${iso(payload.iat)}`,
    ...(payload.nbf !== undefined ? [`Valid from:  ${iso(payload.nbf)}`] : []),
    `Expires:     ${iso(payload.exp)}`,
    ...(payload.seats !== undefined ? [`Seats:       ${payload.seats}`] : []),
    ...(activatedAt ? [`Activated:   ${activatedAt.toISOString()}`] : []),
    '',
    'Licence key (paste it on the hub’s Activation screen, or save this file and drop it there):',
    key,
    '',
  ];
  return lines.join('\n');
}
