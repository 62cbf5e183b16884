/**
 * The live channel's address, close codes and back-off, without zod: the console's frame opens
 * the channel without loading zod and the schemas (issue 26). live.ts re-exports them.
 */

/**
 * The live channel: one WebSocket per browser tab at `GET /api/live`, signed in by the session
 * cookie. The client subscribes to topics; the agent pushes `event` messages on them.
 */
export const LIVE_PATH = '/api/live';

/** Close codes the agent uses beyond the standard ones. */
export const LIVE_CLOSE_CODES = {
  /** The session ended (signed out or expired) while the socket was open. */
  sessionEnded: 4401,
} as const;

/** A browser should reconnect with this back-off: doubling from the first value, capped at the second. */
export const LIVE_RECONNECT_BACKOFF_MS = { initial: 1_000, max: 30_000 } as const;
