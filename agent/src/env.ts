import { createPublicKey } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * The agent's environment (product brief, "Contract"). This is the only module that reads
 * process.env; everything else receives the parsed, typed result.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * The HTTPS port (issue 21): the same console and API with the hub's own certificate (docs/https.md).
   * 8443 by default, 443 in the appliance image; 0 picks a free port (tests). Plain HTTP on PORT
   * sends the console's pages here.
   */
  HTTPS_PORT: z.coerce.number().int().min(0).max(65535).default(8443),
  NEXUS_DATA_DIR: z.string().min(1).default('./data'),
  /** dockerode's own convention: unix:///path.sock or tcp://host:port; unset means the local socket. */
  DOCKER_HOST: z.string().optional(),
  OLLAMA_URL: z.url().default('http://127.0.0.1:11434'),
  HA_URL: z.url().optional(),
  HA_TOKEN: z.string().min(1).optional(),
  /** Where the host's root is mounted when the agent runs in a container (Jetson facts). */
  NEXUS_HOST_ROOT: z.string().min(1).default('/'),
  /** tailscaled's LocalAPI socket (issue 17); /var/run/tailscale/tailscaled.sock when unset. */
  NEXUS_TAILSCALE_SOCKET: z.string().min(1).optional(),
  /** The interface address mDNS discovery uses (the system's default when unset); tests give 127.0.0.1. */
  NEXUS_MDNS_INTERFACE: z.ipv4().optional(),
  /** mDNS's port, 5353 unless a test uses another. */
  NEXUS_MDNS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Wake-on-LAN's UDP port (9 when unset); tests capture the packet on another. */
  NEXUS_WOL_PORT: z.coerce.number().int().min(1).max(65535).default(9),
  /** Where the built web app lives; defaults to web/dist beside the agent. */
  NEXUS_WEB_DIST: z.string().min(1).optional(),
  /** The app catalog for the deploy screens (catalog.json + compose templates); defaults to docker/. */
  NEXUS_CATALOG_DIR: z.string().min(1).optional(),
  /** The name or id of the container the agent runs in (its update is the hub's own); else detected. */
  NEXUS_AGENT_CONTAINER: z.string().min(1).optional(),
  /**
   * Outgoing mail for password-reset links, in nodemailer's URL form (smtp://user:pass@host:587
   * or smtps://…:465). Without it, or without SMTP_FROM and NEXUS_PUBLIC_URL, the owner resets
   * passwords from the command line instead.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must look like smtp://user:pass@host:587 or smtps://host:465')
    .optional(),
  /** The sender of the agent's e-mail, e.g. "Nexus <nexus@example.org>". */
  SMTP_FROM: z.string().min(3).optional(),
  /**
   * The console's address as people open it (e.g. https://nexus.example.org), used in links
   * inside e-mails. It is configured rather than taken from the request's Host header, which
   * anyone can forge to make a reset link point at their own site.
   */
  NEXUS_PUBLIC_URL: z.url().optional(),
  /**
   * Further names the hub answers to, besides its IPs, localhost, *.local and the other private
   * names (http/host-check.ts): comma-separated, `*.example.org` for every name under example.org.
   * Requests with any other Host are refused (DNS rebinding).
   */
  NEXUS_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  /**
   * The first wait before reconnecting to a Wyoming satellite that went away, in ms; it doubles
   * with each failure up to a minute. Tests shorten it.
   */
  NEXUS_WYOMING_RETRY_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Only for `npm run cli -- backup:decrypt`: the backup's passphrase (otherwise read from stdin). */
  NEXUS_BACKUP_PASSPHRASE: z.string().min(1).optional(),
  /** Alerts (issue 19): how long Home Assistant may be disconnected before it notifies, in ms. Tests shorten it. */
  NEXUS_ALERT_HA_GRACE_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /** Alerts: how long a container must run again before its fault notifies as cleared, in ms. */
  NEXUS_ALERT_CONTAINER_STABLE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** Alerts: how often the host, satellites (and, half as often, Ollama, VPN, licence) are checked, in ms. */
  NEXUS_ALERT_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * Waits between a failed notification delivery and its retries, in ms, comma-separated (the last
   * repeats); after 5 attempts a delivery is failed. Default 30 s, 2 min, 10 min, 1 h. Tests shorten it.
   */
  NEXUS_NOTIFY_RETRY_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'comma-separated milliseconds, e.g. 30000,120000,600000,3600000')
    .default('30000,120000,600000,3600000')
    .transform((v) => v.split(',').map(Number)),
  /** While a notification retry is pending, the longest wait before looking again, in ms (outbox.ts). */
  NEXUS_NOTIFY_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(5000),
  /**
   * The vendor's Ed25519 public key (PEM, SPKI) licence keys are checked against, for a vendor's own
   * key; unset, the key shipped in the build (features/subscription/vendor-key.ts). `\n` escapes are
   * read as line breaks, for env files that hold one line. A bad key stops the start.
   */
  NEXUS_LICENCE_PUBLIC_KEY: z
    .string()
    .transform((v) => v.replace(/\\n/g, '\n'))
    .refine(isEd25519PublicKeyPem, 'must be an Ed25519 public key in PEM form (-----BEGIN PUBLIC KEY----- …)')
    .optional(),
  /** The vendor's store where a licence is bought (e.g. https://store.example/buy); the console adds ?hub=<hub id>. */
  NEXUS_LICENCE_STORE_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Who may create an account once the hub has its owner, until an admin chooses on the User
   * Management screen: `open` (anyone who reaches the hub), `invite` (a one-time invite from an
   * admin), `closed` (nobody).
   */
  NEXUS_REGISTRATION: z.enum(['open', 'invite', 'closed']).default('invite'),
  /** Set when a TLS-terminating proxy sits in front of the agent, so cookies get the Secure flag. */
  NEXUS_TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * The proxy's addresses (IPs or CIDRs, comma-separated). Set, it implies NEXUS_TRUST_PROXY, and
   * X-Forwarded-For/-Proto are believed only on connections from these addresses: anyone who
   * reaches the agent's port directly cannot claim another address or https.
   */
  NEXUS_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every(isAddressOrCidr), 'each entry must be an IP address or a CIDR'),
});

function isEd25519PublicKeyPem(pem: string): boolean {
  // createPublicKey would also derive the public half of a private key: the vendor's private key never belongs on a hub.
  if (!pem.includes('-----BEGIN PUBLIC KEY-----')) return false;
  try {
    return createPublicKey({ key: pem, format: 'pem' }).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

export type Env = z.infer<typeof envSchema> & { dataDir: string };

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings from shell exports mean "unset", not "invalid".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  return {
    ...result.data,
    NEXUS_TRUST_PROXY: result.data.NEXUS_TRUST_PROXY || result.data.NEXUS_TRUSTED_PROXIES.length > 0,
    dataDir: path.resolve(result.data.NEXUS_DATA_DIR),
  };
}
