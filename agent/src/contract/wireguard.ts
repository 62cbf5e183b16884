import { z } from 'zod';

/**
 * The hub's WireGuard (issue 17): a server that phones and laptops dial in to, and two upstream
 * tunnels (primary and backup, from a provider's config) with health-checked failover.
 */

export const WG_INTERFACE_PATTERN = /^[a-z][a-z0-9_-]{0,14}$/;
const cidrSchema = z
  .string()
  .max(64)
  .regex(/^[0-9a-fA-F.:]+\/\d{1,3}$/, 'An address with its prefix length, such as 10.8.0.1/24');

/** PUT /api/vpn/server (admin). */
export const wgServerInputSchema = z.strictObject({
  interface: z.string().regex(WG_INTERFACE_PATTERN, 'An interface name such as wg0'),
  listenPort: z.number().int().min(1).max(65535),
  /** The hub's address inside the tunnel and the range peers get addresses from, e.g. 10.8.0.1/24. */
  address: cidrSchema,
  /** host:port phones dial, e.g. hub.example.org:51820 (the router forwards the port). */
  endpoint: z
    .string()
    .max(300)
    .regex(/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/, 'A host and port, such as hub.example.org:51820'),
  /** Off keeps the settings and brings the interface down. */
  enabled: z.boolean().default(true),
  /** DNS server given to peers (optional). */
  dns: z.string().max(200).optional(),
});
export type WgServerInput = z.input<typeof wgServerInputSchema>;

/** GET /api/vpn/server: the settings, the public key, and whether the interface is up (never the private key). */
export const wgServerSchema = z.object({
  configured: z.boolean(),
  interface: z.string(),
  listenPort: z.number().int(),
  address: z.string(),
  endpoint: z.string(),
  enabled: z.boolean(),
  dns: z.string().nullable(),
  publicKey: z.string().nullable(),
  /** The interface exists and is up now. */
  running: z.boolean(),
  /** 'kernel' (the WireGuard module) or 'wireguard-go' (userspace, where the kernel lacks it). */
  implementation: z.enum(['kernel', 'wireguard-go']).nullable(),
  /** Why it is not running, in words. */
  problem: z.string().nullable(),
});
export type WgServer = z.infer<typeof wgServerSchema>;

export const wgPeerIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'A peer id is a positive whole number')
    .transform(Number),
});

/** One dialling-in device, with its live state from `wg show <if> dump`. */
export const wgPeerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  publicKey: z.string(),
  /** Its address in the tunnel, e.g. 10.8.0.2/32. */
  address: z.string(),
  /** What the phone routes through the tunnel (its config's AllowedIPs), e.g. ["0.0.0.0/0"] or the home LAN. */
  clientAllowedIps: z.array(z.string()),
  keepalive: z.number().int().nullable(),
  enabled: z.boolean(),
  latestHandshake: z.string().nullable(),
  rxBytes: z.number(),
  txBytes: z.number(),
  endpoint: z.string().nullable(),
  /** A handshake in the last 3 minutes. */
  online: z.boolean(),
  /** The client config can still be downloaded (once). */
  configAvailable: z.boolean(),
  createdAt: z.string(),
});
export type WgPeer = z.infer<typeof wgPeerSchema>;
export const wgPeerListSchema = z.object({ peers: z.array(wgPeerSchema) });

export const wgPeerInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  clientAllowedIps: z.array(cidrSchema).min(1).max(32).optional(),
  keepalive: z.number().int().min(0).max(3600).optional(),
});
export type WgPeerInput = z.infer<typeof wgPeerInputSchema>;

/** POST /api/vpn/peers answers the client config and its QR code once (201). */
export const wgPeerCreatedSchema = z.object({
  peer: wgPeerSchema,
  /** The wg-quick config for the device: shown once, downloadable once. */
  config: z.string(),
  /** The config as a QR code (SVG markup) for the WireGuard app. */
  qrSvg: z.string(),
});
export type WgPeerCreated = z.infer<typeof wgPeerCreatedSchema>;

export const wgPeerPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(60).optional(),
  enabled: z.boolean().optional(),
  keepalive: z.number().int().min(0).max(3600).nullable().optional(),
});

// ---- Uplinks and failover -------------------------------------------------------------------

export const UPLINK_ROLES = ['primary', 'backup'] as const;
export const MAX_WG_CONFIG_BYTES = 16 * 1024;

/** PUT /api/vpn/uplinks (admin). A config (the provider's wg-quick file) is write-only; omitted keeps it, "" removes it. */
export const uplinksInputSchema = z.strictObject({
  primary: z.string().max(MAX_WG_CONFIG_BYTES).optional(),
  backup: z.string().max(MAX_WG_CONFIG_BYTES).optional(),
  /** What the probes reach through each tunnel: an IP address (ICMP) or host:port (TCP). */
  probeTarget: z.string().min(1).max(300),
  intervalSeconds: z.number().int().min(1).max(600),
  /** Failed probes in a row before the primary counts as down. */
  failAfter: z.number().int().min(1).max(100),
  /** Good probes in a row before traffic goes back to the primary. */
  recoverAfter: z.number().int().min(1).max(1000),
});
export type UplinksInput = z.infer<typeof uplinksInputSchema>;

export const uplinkStateSchema = z.object({
  role: z.enum(UPLINK_ROLES),
  configured: z.boolean(),
  interface: z.string().nullable(),
  /** The provider's endpoint and the tunnel address, from the config (never its keys). */
  endpoint: z.string().nullable(),
  address: z.string().nullable(),
  up: z.boolean(),
  healthy: z.boolean().nullable(),
  /** The last probe's round trip through this tunnel, ms. */
  latencyMs: z.number().nullable(),
  consecutiveFailures: z.number().int(),
  consecutiveSuccesses: z.number().int(),
  latestHandshake: z.string().nullable(),
});

/** GET /api/vpn/uplinks */
export const uplinksSchema = z.object({
  uplinks: z.array(uplinkStateSchema),
  active: z.enum([...UPLINK_ROLES, 'none']),
  probeTarget: z.string().nullable(),
  intervalSeconds: z.number().int(),
  failAfter: z.number().int(),
  recoverAfter: z.number().int(),
  /** Recent probe round trips through the active tunnel, for the latency chart. */
  latency: z.array(z.object({ at: z.string(), role: z.enum(UPLINK_ROLES), ms: z.number().nullable() })),
});
export type Uplinks = z.infer<typeof uplinksSchema>;

/** GET /api/vpn/events: every switch, newest first. */
export const vpnEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  kind: z.enum(['failover', 'failback', 'uplink-down', 'uplink-up', 'server-started', 'server-stopped']),
  from: z.string().nullable(),
  to: z.string().nullable(),
  detail: z.string(),
});
export type VpnEvent = z.infer<typeof vpnEventSchema>;
export const vpnEventListSchema = z.object({ events: z.array(vpnEventSchema) });

// ---- Network info and tools -------------------------------------------------------------------

/** GET /api/network/info answers contract/system.ts's networkInfoSchema (the one /network-info already reads). */

export const NETWORK_TOOLS = ['ping', 'traceroute', 'dns', 'port', 'discover', 'wake', 'throughput'] as const;
export const networkToolParamSchema = z.object({ tool: z.enum(NETWORK_TOOLS) });

/** POST /api/network/tools/:tool bodies, by tool; the answer streams lines as server-sent events. */
export const networkToolInputSchemas = {
  ping: z.strictObject({
    target: z.string().min(1).max(253),
    count: z.number().int().min(1).max(20).default(4),
  }),
  traceroute: z.strictObject({ target: z.string().min(1).max(253) }),
  dns: z.strictObject({
    name: z.string().min(1).max(253),
    type: z.enum(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'PTR', 'NS']).default('A'),
    /** A resolver's IP address; the hub's own resolvers when absent. */
    resolver: z.string().max(64).optional(),
  }),
  port: z.strictObject({
    target: z.string().min(1).max(253),
    port: z.number().int().min(1).max(65535),
    timeoutMs: z.number().int().min(100).max(10_000).default(2000),
  }),
  discover: z.strictObject({ seconds: z.number().int().min(1).max(15).default(5) }),
  wake: z.strictObject({
    mac: z
      .string()
      .regex(/^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/, 'A MAC address such as 00:11:22:33:44:55'),
    broadcast: z.string().max(64).optional(),
  }),
  throughput: z.strictObject({
    direction: z.enum(['download', 'upload']),
    megabytes: z.number().int().min(1).max(200).default(20),
  }),
} as const;

/** Presets of the port check: the hub's usual services. */
export const PORT_PRESETS = [
  { name: 'Home Assistant', port: 8123 },
  { name: 'Ollama', port: 11434 },
  { name: 'Wyoming speech-to-text', port: 10300 },
  { name: 'Wyoming text-to-speech', port: 10200 },
  { name: 'Wyoming wake word', port: 10400 },
  { name: 'Wyoming satellite', port: 10700 },
  { name: 'MQTT', port: 1883 },
] as const;
