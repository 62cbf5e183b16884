import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { badRequest } from '../../lib/http-error.js';
import { splitPem } from './x509.js';

export interface CheckedOwnerCertificate {
  /** The chain as it will be served: leaf first, normalised PEM. */
  certificate: string;
  privateKey: string;
}

/**
 * Checks an owner's certificate before it replaces the hub's: every block parses, the key opens
 * (unencrypted) and belongs to the leaf, the leaf is valid now, and each certificate is issued and
 * signed by the next (leaf first, as TLS sends them). Each failure is a 400 naming it; the key's
 * text never appears in a message.
 */
export function checkOwnerCertificate(
  input: { certificate: string; privateKey: string },
  now = Date.now(),
): CheckedOwnerCertificate {
  const blocks = splitPem(input.certificate);
  if (!blocks.length) throw badRequest('certificate: no PEM certificate (-----BEGIN CERTIFICATE-----) found');
  const chain: X509Certificate[] = blocks.map((pem, index) => {
    try {
      return new X509Certificate(pem);
    } catch {
      throw badRequest(`certificate: block ${index + 1} is not a readable X.509 certificate`);
    }
  });

  let key: KeyObject;
  try {
    key = createPrivateKey({ key: input.privateKey, format: 'pem' });
  } catch {
    throw badRequest('privateKey: not a readable, unencrypted PEM private key');
  }

  const leaf = chain[0]!;
  if (!leaf.checkPrivateKey(key)) throw badRequest('privateKey: does not belong to the first certificate');
  if (leaf.ca)
    throw badRequest('certificate: the first certificate is a CA certificate, not a server certificate');
  if (Date.parse(leaf.validTo) <= now) throw badRequest(`certificate: expired on ${leaf.validTo}`);
  if (Date.parse(leaf.validFrom) > now) throw badRequest(`certificate: not valid before ${leaf.validFrom}`);

  for (let i = 0; i + 1 < chain.length; i++) {
    const cert = chain[i]!;
    const issuer = chain[i + 1]!;
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) {
      throw badRequest(
        `certificate: block ${i + 2} did not issue block ${i + 1}; give the server certificate first, then each issuer in order`,
      );
    }
    if (Date.parse(issuer.validTo) <= now)
      throw badRequest(`certificate: block ${i + 2} expired on ${issuer.validTo}`);
  }

  return {
    certificate: chain.map((cert) => cert.toString().trim()).join('\n') + '\n',
    privateKey: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}
