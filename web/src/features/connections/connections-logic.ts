import {
  uplinksInputSchema,
  type NetworkVisitor,
  type Uplinks,
  type UplinksInput,
} from '@nexus/agent/contract';

/** "just now", "2 min ago", "3 h ago", "4 days ago"; "never" without a handshake. */
export function handshakeAgo(iso: string | null, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return 'never';
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * The QR code as an <img> source. The SVG comes from our own agent, but an <img> still never runs
 * its scripts nor lets its markup into the page, unlike dangerouslySetInnerHTML.
 */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** A file name the WireGuard apps accept as a tunnel name: letters, digits, _=+.- and at most 15 of them. */
export function configFileName(peerName: string): string {
  const base = peerName
    .replace(/[^A-Za-z0-9_=+.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 15);
  return `${base || 'nexus'}.conf`;
}

/** Saves text as a file through a temporary link (no request: the config we already hold). */
export function saveTextFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export interface UplinksFormValues {
  primary: string;
  backup: string;
  probeTarget: string;
  intervalSeconds: string;
  failAfter: string;
  recoverAfter: string;
}

export type UplinksFormErrors = Partial<Record<keyof UplinksFormValues, string>>;

export function uplinksFormValues(uplinks: Uplinks | undefined): UplinksFormValues {
  return {
    // The configs are write-only: the form never holds the stored ones.
    primary: '',
    backup: '',
    probeTarget: uplinks?.probeTarget ?? '',
    intervalSeconds: String(uplinks?.intervalSeconds ?? 10),
    failAfter: String(uplinks?.failAfter ?? 3),
    recoverAfter: String(uplinks?.recoverAfter ?? 5),
  };
}

/**
 * The form as the PUT body, checked with the contract's own schema so the screen and the agent refuse
 * the same things. An empty config field keeps the stored config (omitted); removing one is `remove`.
 */
export function parseUplinksForm(
  values: UplinksFormValues,
  remove: { primary?: boolean; backup?: boolean } = {},
): { ok: true; input: UplinksInput } | { ok: false; errors: UplinksFormErrors } {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const config = (text: string, drop: boolean | undefined) => (drop ? '' : text.trim() ? text : undefined);
  const candidate = {
    primary: config(values.primary, remove.primary),
    backup: config(values.backup, remove.backup),
    probeTarget: values.probeTarget.trim(),
    intervalSeconds: number(values.intervalSeconds),
    failAfter: number(values.failAfter),
    recoverAfter: number(values.recoverAfter),
  };
  const parsed = uplinksInputSchema.safeParse(JSON.parse(JSON.stringify(candidate)) as unknown);
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: UplinksFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof UplinksFormValues | undefined;
    if (field && !errors[field]) errors[field] = fieldMessage(field, issue.code);
  }
  return { ok: false, errors };
}

const LIMITS: Record<string, string> = {
  intervalSeconds: 'Enter a whole number of seconds from 1 to 600.',
  failAfter: 'Enter a whole number of failed probes from 1 to 100.',
  recoverAfter: 'Enter a whole number of good probes from 1 to 1000.',
  probeTarget: 'Enter an IP address (pinged) or host:port (a TCP connect) to probe through each tunnel.',
  primary: 'The config is too long: paste the provider’s WireGuard config file (at most 16 KB).',
  backup: 'The config is too long: paste the provider’s WireGuard config file (at most 16 KB).',
};

function fieldMessage(field: keyof UplinksFormValues, _code: string): string {
  return LIMITS[field] ?? 'Check this field.';
}

/** The visitor check's answer in words, for /unifi-teleport. */
export function visitorSentence(v: NetworkVisitor): { title: string; detail: string } {
  const where = v.range ? ` (${v.range})` : '';
  switch (v.kind) {
    case 'wireguard':
      return {
        title: 'You are coming through the hub’s WireGuard VPN.',
        detail: `Your address ${v.address} is in the hub’s WireGuard range${where}.`,
      };
    case 'tailscale':
      return {
        title: 'You are coming through Tailscale.',
        detail: `Your address ${v.address} is in Tailscale’s range${where}.`,
      };
    case 'teleport':
      return {
        title: 'You are probably coming through UniFi Teleport.',
        detail: `Your address ${v.address} is in Teleport’s default range${where}. If your UniFi gateway hands out that range to something else, this may be another network.`,
      };
    case 'lan':
      return {
        title: 'You are on the hub’s own network, not a VPN.',
        detail: `Your address ${v.address} is on the hub’s local network${where}. From outside your home you would need a VPN such as Teleport.`,
      };
    case 'other':
      return v.range
        ? {
            title: 'You are coming from a private network the hub does not know.',
            detail: `Your address ${v.address} is private${where} but not the hub’s LAN nor a VPN range it knows: another VPN (for example Teleport with a changed subnet) or another network segment.`,
          }
        : {
            title: 'You are not coming through a VPN.',
            detail: `Your address ${v.address} is a public address: you reached the hub across the internet, not through a VPN.`,
          };
  }
}
