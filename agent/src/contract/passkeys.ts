import { z } from 'zod';

/**
 * Passkeys (WebAuthn). Options answers are the standard PublicKeyCredential*OptionsJSON that
 * @simplewebauthn/server makes and @simplewebauthn/browser expects; verify bodies are the
 * RegistrationResponseJSON / AuthenticationResponseJSON the browser library returns. Those are
 * checked here only for shape and size: the cryptography is the library's job.
 */

export const PASSKEY_NAME_MAX = 64;
/** More than anyone carries; it keeps one account from filling the table. */
export const MAX_PASSKEYS_PER_USER = 50;

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'Expected base64url');

const passkeyName = z
  .string()
  .trim()
  .min(1, 'Give the passkey a name')
  .max(PASSKEY_NAME_MAX, `A passkey name is at most ${PASSKEY_NAME_MAX} characters`);

const transports = z.array(z.string().max(32)).max(10);
/** Client extension results: free-form, but small. */
const extensionResults = z
  .record(z.string().max(64), z.unknown())
  .refine((v) => JSON.stringify(v).length <= 4096, 'Extension results too large')
  .default({});

export const registrationResponseSchema = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65536),
    authenticatorData: base64url(65536).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
});

/** `POST /api/auth/passkeys/register/verify`: the browser's answer, plus the name the person chose. */
export const registerPasskeyInputSchema = registrationResponseSchema.extend({
  name: passkeyName.optional(),
});
export type RegisterPasskeyInput = z.infer<typeof registerPasskeyInputSchema>;

export const authenticationResponseSchema = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(65536),
    signature: base64url(4096),
    userHandle: base64url(512).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
});
export type AuthenticationResponseInput = z.infer<typeof authenticationResponseSchema>;

/** `POST /api/auth/passkeys/login/verify`. */
export const passkeyLoginInputSchema = authenticationResponseSchema.extend({
  rememberMe: z.boolean().optional().default(false),
});
export type PasskeyLoginInput = z.infer<typeof passkeyLoginInputSchema>;

/**
 * `POST /api/auth/passkeys/login/options`. The e-mail is accepted for clients that send it but
 * not used: listing an account's credentials for any e-mail would tell a stranger which
 * accounts exist and have passkeys, and passkeys are discoverable anyway.
 */
export const passkeyLoginOptionsInputSchema = z.object({ email: z.string().max(320).optional() });

export const renamePasskeyInputSchema = z.object({ name: passkeyName });
export type RenamePasskeyInput = z.infer<typeof renamePasskeyInputSchema>;

export const passkeyIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'A passkey id is a positive whole number')
    .transform(Number),
});

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** ISO times. */
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** multiDevice: synced (iCloud Keychain, Google Password Manager…); singleDevice: bound to one authenticator. */
  deviceType: z.enum(['singleDevice', 'multiDevice']).nullable(),
  backedUp: z.boolean(),
  transports: z.array(z.string()),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const passkeyResponseSchema = z.object({ passkey: passkeySchema });
export type PasskeyResponse = z.infer<typeof passkeyResponseSchema>;

/** Every failed passkey sign-in says only this, whatever went wrong. */
export const PASSKEY_SIGN_IN_FAILED_MESSAGE = 'Passkey sign-in failed';
