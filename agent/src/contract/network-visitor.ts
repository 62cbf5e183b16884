import { z } from 'zod';

/**
 * GET /api/network/visitor (issue 17, /unifi-teleport): which way the caller reached the hub, judged
 * from its address against the ranges the hub knows.
 */
export const VISITOR_KINDS = ['wireguard', 'tailscale', 'teleport', 'lan', 'other'] as const;
export type VisitorKind = (typeof VISITOR_KINDS)[number];

export const networkVisitorSchema = z.object({
  /** The caller's address as the agent sees it (the socket's, or the trusted proxy's forwarded one). */
  address: z.string(),
  /** Arrived through a VPN range the hub knows (its WireGuard server, Tailscale, UniFi Teleport's default). */
  viaVpn: z.boolean(),
  /** The range that matched, e.g. "10.8.0.0/24"; null when none did (a public or unreadable address). */
  range: z.string().nullable(),
  /**
   * 'lan': the hub's own subnet, loopback or link-local; 'other': a private range the hub does not
   * know (another VPN, such as Teleport with a changed subnet, or another LAN segment) or a public address.
   */
  kind: z.enum(VISITOR_KINDS),
});
export type NetworkVisitor = z.infer<typeof networkVisitorSchema>;
