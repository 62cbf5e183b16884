import { z } from 'zod';

/**
 * Safe container updates (issue 20): whether a newer image exists for a container's tag (the
 * registry's digest compared with the local one, nothing pulled), and a one-click update that
 * pulls, recreates with the same settings, waits for health and rolls back on failure.
 */

/** 'unknown' when the registry cannot be asked (offline, no tag, a local-only image, an auth failure). */
export const IMAGE_UPDATE_STATES = ['up-to-date', 'update-available', 'unknown'] as const;
export type ImageUpdateState = (typeof IMAGE_UPDATE_STATES)[number];

export const containerUpdateCheckSchema = z.object({
  containerId: z.string(),
  name: z.string(),
  /** The reference the container was created from, e.g. "ghcr.io/home-assistant/home-assistant:stable". */
  image: z.string(),
  state: z.enum(IMAGE_UPDATE_STATES),
  /** The digest the local image was pulled with (RepoDigests), or null for a locally built image. */
  localDigest: z.string().nullable(),
  /** The digest the registry now serves for the tag, or null when unknown. */
  remoteDigest: z.string().nullable(),
  /** Why the state is unknown, in words (e.g. "The registry could not be reached"). */
  reason: z.string().nullable(),
  /** True for the container that runs this agent: its update takes a backup first. */
  isHub: z.boolean(),
  checkedAt: z.string(),
});
export type ContainerUpdateCheck = z.infer<typeof containerUpdateCheckSchema>;

/** GET /api/docker/updates (?refresh=true asks the registries again instead of the cached answer). */
export const dockerUpdatesQuerySchema = z.object({
  refresh: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export const dockerUpdatesSchema = z.object({
  containers: z.array(containerUpdateCheckSchema),
  checkedAt: z.string().nullable(),
});
export type DockerUpdates = z.infer<typeof dockerUpdatesSchema>;

/** POST /api/docker/containers/:id/update answers this. */
export const containerUpdateResultSchema = z.object({
  result: z.enum(['updated', 'rolled-back']),
  /** Image ids (sha256:…) before and after; `to` equals `from` after a rollback's restore. */
  from: z.string(),
  to: z.string(),
  /** Why it rolled back, in words; null when updated. */
  reason: z.string().nullable().optional(),
  /** The new container's id (the name stays the same). */
  containerId: z.string().optional(),
});
export type ContainerUpdateResult = z.infer<typeof containerUpdateResultSchema>;
