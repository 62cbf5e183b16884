import { X509Certificate as NodeX509, randomBytes, webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';
import type { TlsCertificateInfo } from '../../contract/tls.js';
import type { HubNames } from './hub-names.js';

/**
 * Making and reading certificates: the one module that knows @peculiar/x509 (issuing, over node's
 * WebCrypto) and node's X509Certificate (checking). Keys are ECDSA P-256: every browser and OS the
 * household uses accepts them, and making one takes a millisecond, not RSA's seconds on a Jetson.
 */

const require = createRequire(import.meta.url);
let library: typeof X509 | null = null;
/**
 * @peculiar/x509 with its ASN.1 schemas, tsyringe and reflect-metadata is about 15 MB once loaded:
 * it loads when a certificate is made or shown in full, not at each start (a start that finds its
 * certificates reads their expiry with node's own X509Certificate). Required, not imported, so that
 * describeCertificate stays synchronous.
 */
function peculiar(): typeof X509 {
  if (!library) {
    // @peculiar/x509 resolves its ASN.1 types through tsyringe, which needs the Reflect metadata API.
    require('reflect-metadata');
    const loaded = require('@peculiar/x509') as typeof X509;
    loaded.cryptoProvider.set(webcrypto as unknown as Parameters<typeof loaded.cryptoProvider.set>[0]);
    library = loaded;
  }
  return library;
}

const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The CA lasts ten years: the household installs it once per device. */
export const CA_LIFETIME_DAYS = 3650;
/**
 * The server certificate lasts 397 days: Apple's platforms refuse TLS certificates valid for longer
 * than 825 days even from a CA the user installed, and browsers are converging on about a year.
 */
export const SERVER_LIFETIME_DAYS = 397;

export interface PemPair {
  certificate: string;
  privateKey: string;
}

async function newKeys() {
  return (await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const x509 = peculiar();
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** A positive, random 16-byte serial (RFC 5280 asks for unique, browsers for unpredictable). */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

/** Quoting for an RDN value in @peculiar/x509's string form. */
function rdn(value: string): string {
  return value.replace(/[\\,+"<>;=]/g, (ch) => `\\${ch}`);
}

/** The hub's CA: may sign server certificates only (path length 0). */
export async function createCa(commonName: string, now = Date.now()): Promise<PemPair> {
  const x509 = peculiar();
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${rdn(commonName)}, O=Nexus hub`,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + CA_LIFETIME_DAYS * DAY_MS),
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: cert.toString('pem'), privateKey: await privateKeyPem(keys.privateKey) };
}

/** A server certificate for `names`, signed by the CA. */
export async function issueServerCertificate(
  ca: PemPair,
  names: HubNames,
  now = Date.now(),
): Promise<PemPair> {
  const x509 = peculiar();
  const caCert = new x509.X509Certificate(ca.certificate);
  const caKey = await webcrypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decodeFirst(ca.privateKey),
    EC_KEY,
    false,
    ['sign'],
  );
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${rdn(names.dnsNames.find((n) => n !== 'localhost') ?? 'localhost')}`,
    issuer: caCert.subject,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + SERVER_LIFETIME_DAYS * DAY_MS),
    signingAlgorithm: SIGNING,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.dnsNames.map((value) => ({ type: 'dns' as const, value })),
        ...names.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { certificate: cert.toString('pem'), privateKey: await privateKeyPem(keys.privateKey) };
}

/** Every certificate in a PEM text, in order. */
export function splitPem(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** A certificate as the console shows it; `pem` must hold one parsable certificate. */
export function describeCertificate(pem: string): TlsCertificateInfo {
  const x509 = peculiar();
  const cert = new x509.X509Certificate(pem);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const names = san?.names.items ?? [];
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    fingerprintSha256: new NodeX509(pem).fingerprint256,
  };
}

/** When a certificate ends (ms since the epoch), read with node's X509Certificate alone. */
export function certificateNotAfter(pem: string): number {
  return Date.parse(new NodeX509(pem).validTo);
}
