import { z } from 'zod';

/** The JSON error shape every endpoint answers with (product brief, "Contract"). */
export const apiErrorSchema = z.object({ message: z.string(), details: z.unknown().optional() });
export type ApiError = z.infer<typeof apiErrorSchema>;
