import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { Notify } from '../notifications/index.js';
import type { SessionService } from '../auth/index.js';

/** Per account: hashes of the devices it has signed in from (the newest KNOWN_DEVICES_MAX). */
export const knownDevicesSetting = (userId: number) => `alerts.knownDevices.${userId}`;
const KNOWN_DEVICES_MAX = 50;

export interface SignInDevice {
  browser: string;
  os: string;
  /** The client's network: its IPv4 /24 or IPv6 /64, never the full address in a message. */
  network: string;
  /** A paired phone's name, when the session is a phone's. */
  phone: string | null;
}

/** The browser family and OS from a User-Agent, coarsely: a browser update is not a new device. */
export function describeDevice(
  userAgent: string | undefined,
  address: string | undefined,
  phone?: string,
): SignInDevice {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : (/^([A-Za-z][\w.-]{0,40})\//.exec(ua)?.[1] ?? 'an unknown browser');
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iPod/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : 'an unknown system';
  return { browser, os, network: networkOf(address), phone: phone ?? null };
}

function networkOf(address: string | undefined): string {
  if (!address) return 'an unknown network';
  const plain = address.replace(/^::ffff:/i, '');
  if (isIP(plain) === 4) return `${plain.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIP(plain) === 6) {
    const [head = ''] = plain.split('::');
    const groups = head.split(':').filter(Boolean);
    return `${[...groups, '0', '0', '0', '0'].slice(0, 4).join(':')}::/64`;
  }
  return 'an unknown network';
}

const fingerprint = (d: SignInDevice) =>
  createHash('sha256')
    .update(d.phone !== null ? `phone\0${d.phone}` : `${d.browser}\0${d.os}\0${d.network}`)
    .digest('hex')
    .slice(0, 32);

/**
 * Sign-ins from a device an account has not used before notify that account's owner only
 * (category security): the browser, system and network, never the password, the token or the
 * full address. Every session is made through `sessions.create` (password, passkey, phone
 * pairing, sign-up), so the session service is wrapped once. An account's first device (its
 * sign-up, or its first sign-in after this feature arrived) is remembered without a word.
 */
export function watchSignIns(deps: {
  sessions: SessionService;
  settings: {
    get<T>(key: string, schema: z.ZodType<T>): T | undefined;
    set(key: string, value: unknown): void;
  };
  notify: Notify;
  onError: (err: unknown) => void;
}): SessionService {
  const schema = z.array(z.string());

  function seen(userId: number, device: SignInDevice) {
    const key = knownDevicesSetting(userId);
    const known = deps.settings.get(key, schema) ?? [];
    const print = fingerprint(device);
    const isNew = !known.includes(print);
    deps.settings.set(key, [...known.filter((k) => k !== print), print].slice(-KNOWN_DEVICES_MAX));
    if (!isNew || known.length === 0) return;
    deps.notify({
      userId,
      level: 'warning',
      category: 'security',
      title: 'New sign-in to your account',
      body: device.phone
        ? `The phone "${device.phone}" signed in. If that was not you, revoke it and change your password.`
        : `${device.browser} on ${device.os} from ${device.network} signed in. If that was not you, sign out the session and change your password.`,
      link: '/settings',
    });
  }

  return {
    ...deps.sessions,
    create(userId, opts) {
      const created = deps.sessions.create(userId, opts);
      try {
        seen(userId, describeDevice(opts.userAgent, opts.ipAddress, opts.phone?.name));
      } catch (err) {
        // A notification that cannot be made must not undo the sign-in.
        deps.onError(err);
      }
      return created;
    },
  };
}
