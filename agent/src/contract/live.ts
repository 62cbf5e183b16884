import { z } from 'zod';
import type { MetricSample } from './system.js';

/**
 * The live channel: one WebSocket per browser tab at `GET /api/live`, signed in by the session
 * cookie. The client subscribes to topics; the agent pushes `event` messages on them.
 */
export { LIVE_CLOSE_CODES, LIVE_PATH, LIVE_RECONNECT_BACKOFF_MS } from './live-constants.js';

/** A topic: dot-separated words, e.g. `metrics`, `docker.logs.<id>`, `ha.entities`. */
export const liveTopicSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_:-]+)*$/, 'Invalid topic');

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topic: liveTopicSchema }),
  z.object({ type: z.literal('unsubscribe'), topic: liveTopicSchema }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), topic: z.string(), data: z.unknown() }),
  z.object({ type: z.literal('subscribed'), topic: z.string() }),
  z.object({ type: z.literal('unsubscribed'), topic: z.string() }),
  /** A request could not be honoured (bad message, unknown topic, not allowed). */
  z.object({ type: z.literal('error'), topic: z.string().optional(), message: z.string() }),
  /** The client read too slowly and this many events of the topic were dropped. */
  z.object({ type: z.literal('dropped'), topic: z.string(), count: z.number().int().positive() }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

/** The data each known topic carries; features add theirs here. */
export interface LiveTopicData {
  metrics: MetricSample;
}
