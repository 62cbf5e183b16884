import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software passkey authenticator for integration tests, written from the WebAuthn spec with
 * node:crypto only (ES256 keys, attestation "none"), so the agent's use of @simplewebauthn is
 * checked against something other than that library. It answers the options JSON the agent
 * sends exactly as @simplewebauthn/browser would hand the result to the server.
 */

// --- a minimal CBOR encoder (RFC 8949): unsigned/negative ints, byte and text strings, maps ---

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(value, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(value, 1);
  return b;
}

type CborValue = number | string | Buffer | Map<CborValue, CborValue>;

export function cbor(value: CborValue): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  /** The page's origin the "browser" reports in clientDataJSON. */
  origin: string;
  /** The RP ID whose hash goes into authenticatorData (default: the options' own). */
  rpId?: string;
  /** Leave user verification (PIN, biometrics) out of the flags. */
  noUserVerification?: boolean;
  /** Sign for this challenge instead of the options' one (for replay tests). */
  challenge?: string;
}

export class SoftAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /**
   * `counterless`: always report signature counter 0, as synced passkeys (iCloud Keychain, Google
   * Password Manager) do; then nothing but the single-use challenge stops a replayed answer.
   */
  constructor(private readonly opts: { counterless?: boolean } = {}) {}

  /** navigator.credentials.create(): answers PublicKeyCredentialCreationOptionsJSON. */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    opts: CeremonyOverrides,
  ) {
    const rpId = opts.rpId ?? options.rp.id ?? new URL(opts.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<CborValue, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credentialId = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_UP | (opts.noUserVerification ? 0 : FLAG_UV) | FLAG_AT]),
      Buffer.alloc(4), // signature counter 0
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credentialId,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: opts.challenge ?? options.challenge,
        origin: opts.origin,
        crossOrigin: false,
      }),
    );
    this.credentials.push({ id: credentialId, privateKey, rpId, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(credentialId),
      rawId: b64url(credentialId),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(): answers PublicKeyCredentialRequestOptionsJSON with a stored credential. */
  authenticate(
    options: { challenge: string; rpId?: string },
    opts: CeremonyOverrides & { credential?: StoredCredential },
  ) {
    const credential = opts.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error('no credential registered');
    if (!this.opts.counterless) credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const rpId = opts.rpId ?? options.rpId ?? credential.rpId;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_UP | (opts.noUserVerification ? 0 : FLAG_UV)]),
      counter,
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: opts.challenge ?? options.challenge,
        origin: opts.origin,
        crossOrigin: false,
      }),
    );
    // ES256: ECDSA over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded as WebAuthn wants.
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
