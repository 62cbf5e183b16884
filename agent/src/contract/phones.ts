import { z } from 'zod';

/** A pairing link lives this long: long enough to find the phone and scan, short enough to be useless in a photo. */
export const PHONE_PAIRING_TTL_MS = 10 * 60 * 1000;

const deviceNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the phone a name')
  .max(60)
  .regex(/^[^\p{Cc}]+$/u, 'No control characters');

/** POST /api/auth/phones/pairings */
export const createPhonePairingInputSchema = z.object({ name: deviceNameSchema });
export type CreatePhonePairingInput = z.infer<typeof createPhonePairingInputSchema>;

/** The answer to POST /api/auth/phones/pairings: the link carries the token in its fragment, shown once. */
export const createdPhonePairingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** `<origin>/pair#<token>`: the fragment never reaches a server log. */
  url: z.string(),
  /** ISO time. */
  expiresAt: z.string(),
});
export type CreatedPhonePairing = z.infer<typeof createdPhonePairingSchema>;

/** GET /api/auth/phones/pairings/:id: the screen polls it to notice the phone signed in. */
export const phonePairingStatusSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['waiting', 'paired', 'expired']),
  expiresAt: z.string(),
  pairedAt: z.string().nullable(),
});
export type PhonePairingStatus = z.infer<typeof phonePairingStatusSchema>;

export const phonePairingIdParamSchema = z.object({ id: z.coerce.number().int().positive() });

/** POST /api/auth/phones/pair: the token from the link's fragment. */
export const pairPhoneInputSchema = z.object({ token: z.string().min(1).max(128) });
export type PairPhoneInput = z.infer<typeof pairPhoneInputSchema>;

/** A phone signed in through a pairing link (GET /api/auth/phones). */
export const pairedPhoneSchema = z.object({
  /** The session's public id. */
  id: z.string(),
  name: z.string(),
  /** "Safari on iOS", from the User-Agent; null when it says nothing useful. */
  device: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type PairedPhone = z.infer<typeof pairedPhoneSchema>;
export const pairedPhoneListSchema = z.object({ phones: z.array(pairedPhoneSchema) });
export type PairedPhoneList = z.infer<typeof pairedPhoneListSchema>;

export const pairedPhoneIdParamSchema = z.object({ id: z.string().regex(/^[0-9a-f]{1,64}$/) });
