/**
 * The vendor's Ed25519 public key (SPKI PEM) that licence keys are checked against when
 * NEXUS_LICENCE_PUBLIC_KEY is not set.
 *
 * This one was generated for development and its private key was discarded, never stored or
 * committed: no key signed by it exists, so with it this build accepts no licence at all. A vendor
 * shipping Nexus replaces it with the public half of their own signing key:
 *   npx tsx scripts/licence.ts keygen --out <a safe place>
 * then paste the printed public.pem here (or set NEXUS_LICENCE_PUBLIC_KEY on the hubs), keep
 * private.pem offline, and sign keys with `npx tsx scripts/licence.ts sign --key private.pem …`.
 * Only the public half ever belongs in this repository.
 */
export const VENDOR_LICENCE_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAUBGNY2n7bGxlpszQXLIWHP9Q8Nly0V+Q8kArB40+SA4=
-----END PUBLIC KEY-----
`;
