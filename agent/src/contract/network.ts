import { z } from 'zod';
import { tailscaleStateSchema } from './status.js';
import { networkInfoSchema } from './system.js';

/**
 * GET /api/network/info (issue 17): the host's network (the same figures as /api/system/network,
 * with the Wi-Fi links) and Tailscale's state when tailscaled runs on the hub.
 */
export const tailscaleInfoSchema = z.object({
  /** tailscaled answered (whatever its BackendState: Running, Stopped, NeedsLogin…). */
  running: z.boolean(),
  /** Said in words when it is not running, or could not be read: "Tailscale is not running on this hub". */
  message: z.string().nullable(),
  state: tailscaleStateSchema.nullable(),
});
export type TailscaleInfo = z.infer<typeof tailscaleInfoSchema>;

export const TAILSCALE_NOT_RUNNING = 'Tailscale is not running on this hub';

export const networkPageSchema = networkInfoSchema.extend({ tailscale: tailscaleInfoSchema });
export type NetworkPage = z.infer<typeof networkPageSchema>;

/**
 * POST /api/network/tools/:tool streams server-sent events: `line` events ({text}) as the tool
 * prints, then one `done` ({ok, summary, ...figures}) or one `error` ({message}).
 */
export const networkToolLineSchema = z.object({ text: z.string() });
export const networkToolDoneSchema = z.object({
  ok: z.boolean(),
  summary: z.string(),
  /** Tool-specific figures: ping's loss and average, the port's open state, the throughput rate… */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type NetworkToolDone = z.infer<typeof networkToolDoneSchema>;
export const networkToolErrorSchema = z.object({ message: z.string() });

/** One tool per user at a time, and this many starts per user per minute. */
export const NETWORK_TOOL_CONCURRENCY = 1;
export const NETWORK_TOOL_PER_MINUTE = 30;
