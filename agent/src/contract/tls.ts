import { z } from 'zod';

/**
 * HTTPS (issue 21): the hub's own CA and server certificate, or one the owner supplied.
 * Private keys appear only in the owner's upload; no answer ever carries one.
 */
export const tlsCertificateSourceSchema = z.enum(['hub', 'owner']);
export type TlsCertificateSource = z.infer<typeof tlsCertificateSourceSchema>;

/** One certificate as the console shows it. */
export const tlsCertificateInfoSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  /** DNS names of the subjectAltName extension. */
  dnsNames: z.array(z.string()),
  /** IP addresses of the subjectAltName extension. */
  ipAddresses: z.array(z.string()),
  /** ISO times. */
  notBefore: z.string(),
  notAfter: z.string(),
  /** SHA-256 of the DER, as colon-separated upper-case hex (what OS certificate viewers show). */
  fingerprintSha256: z.string(),
});
export type TlsCertificateInfo = z.infer<typeof tlsCertificateInfoSchema>;

/** What every signed-in person needs to trust the hub: the CA's fingerprint and the HTTPS port. */
export const tlsCaSchema = z.object({
  subject: z.string(),
  notAfter: z.string(),
  fingerprintSha256: z.string(),
  /** Where the agent listens for HTTPS, or null when it does not (yet). */
  httpsPort: z.number().int().nullable(),
  /** Whose certificate the HTTPS port presents: with the owner's, installing the hub's CA is not needed. */
  source: tlsCertificateSourceSchema,
});
export type TlsCa = z.infer<typeof tlsCaSchema>;

/** GET /api/tls (admins). */
export const tlsStatusSchema = z.object({
  source: tlsCertificateSourceSchema,
  httpsPort: z.number().int().nullable(),
  /** The certificate the HTTPS port presents now (the leaf). */
  certificate: tlsCertificateInfoSchema,
  /** Further certificates of the chain the owner supplied (intermediates), leaf excluded. */
  chain: z.array(tlsCertificateInfoSchema),
  /** The hub's own CA (served at /ca.crt whichever certificate is in use). */
  ca: tlsCertificateInfoSchema,
});
export type TlsStatus = z.infer<typeof tlsStatusSchema>;

/** The largest PEM accepted: a leaf with a few intermediates and a 4096-bit RSA key fit easily. */
const MAX_PEM_CHARS = 64 * 1024;

/** PUT /api/tls/certificate: PEM text, the leaf first, then its intermediates in order. */
export const tlsCertificateInputSchema = z.object({
  certificate: z.string().min(1).max(MAX_PEM_CHARS),
  privateKey: z.string().min(1).max(MAX_PEM_CHARS),
});
export type TlsCertificateInput = z.infer<typeof tlsCertificateInputSchema>;
