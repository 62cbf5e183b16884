import { createHmac } from 'node:crypto';
import type { Mailer } from '../../adapters/mailer.js';
import {
  OutboundRedirectError,
  OutboundRefusedError,
  type OutboundGuard,
} from '../../adapters/outbound-guard.js';
import type { NotificationCategory, NotificationLevel } from '../../contract/notifications.js';
import type { ChannelSettings } from './channel-settings.js';

/** What every channel carries: one notification, as the recipients will read it. */
export interface OutgoingMessage {
  id: number;
  category: NotificationCategory;
  level: NotificationLevel;
  title: string;
  body: string | null;
  /** The console path, e.g. /nexus-docker. */
  link: string | null;
  createdAt: Date;
}

/** Why a send failed, in words fit for the console (never a token, secret or credentialed URL). */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** How long one send may take before it counts as failed (and is retried). */
export const SEND_TIMEOUT_MS = 10_000;

/** Home Assistant's notify services as the delivery needs them (from the HA feature). */
export interface HaNotifyPort {
  /** Calls notify.<service>; rejects when HA is not connected or refuses. */
  notify(
    service: string,
    data: { title: string; message: string; data?: Record<string, unknown> },
  ): Promise<void>;
  /** The notify services HA offers now, e.g. ["notify.notify", "notify.mobile_app_pixel_8"]; [] when not connected. */
  services(): Promise<string[]>;
}

export interface ChannelDeps {
  mailer: Mailer | null;
  homeAssistant: HaNotifyPort;
  guard: OutboundGuard;
  /** NEXUS_PUBLIC_URL: links in messages are absolute only when it is set. */
  publicUrl: string | null;
  hubName: () => string;
  now: () => number;
}

/** The console link as an absolute URL, when the hub knows its public address. */
export function absoluteLink(publicUrl: string | null, link: string | null): string | null {
  if (!publicUrl || !link) return null;
  return new URL(link, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString();
}

/** A URL fit for a log line or an error: scheme, host and port only (no userinfo, path, query). */
export function safeOrigin(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(an invalid address)';
  }
}

/** ntfy's priorities (1 min … 5 max/urgent): faults stand out, good news is ordinary. */
const NTFY_PRIORITY: Record<NotificationLevel, string> = {
  error: '5',
  warning: '4',
  success: '3',
  info: '3',
};
/** ntfy turns tags that are emoji short codes into emoji before the title. */
const NTFY_TAG: Record<NotificationLevel, string> = {
  error: 'rotating_light',
  warning: 'warning',
  success: 'white_check_mark',
  info: 'information_source',
};

/**
 * HTTP headers are Latin-1; ntfy decodes RFC 2047 encoded words (=?UTF-8?B?…?=) in its headers, so
 * a title with other characters is sent that way.
 */
export function headerText(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/** The webhook's JSON, exactly the bytes that are signed. */
export function webhookBody(message: OutgoingMessage, hub: string, sentAt: Date, publicUrl: string | null) {
  return JSON.stringify({
    id: message.id,
    category: message.category,
    level: message.level,
    title: message.title,
    body: message.body,
    link: message.link,
    url: absoluteLink(publicUrl, message.link),
    createdAt: message.createdAt.toISOString(),
    // Signed with the rest, so a receiver can refuse an old body replayed with a fresh header.
    sentAt: sentAt.toISOString(),
    hub,
  });
}

export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function outboundFailure(error: unknown, target: string): DeliveryError {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof OutboundRefusedError) return new DeliveryError(e.message);
    if (e instanceof OutboundRedirectError) return new DeliveryError(e.message);
  }
  if (error instanceof Error && error.name === 'TimeoutError')
    return new DeliveryError(`${target} did not answer within ${SEND_TIMEOUT_MS / 1000} s`);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  const text = error instanceof Error ? error.message : String(error);
  return new DeliveryError(`Could not reach ${target}: ${cause ?? text}`);
}

/** POSTs through the outbound guard; a status other than 2xx is a failure with the answer's start. */
async function guardedPost(
  guard: OutboundGuard,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DeliveryError('The address is not a URL');
  }
  const target = safeOrigin(url);
  // fetch refuses URLs with credentials; https://user:pass@host/… means HTTP Basic, as curl reads it.
  if (parsed.username || parsed.password) {
    const user = decodeURIComponent(parsed.username);
    const pass = decodeURIComponent(parsed.password);
    headers = { Authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`, ...headers };
    parsed.username = '';
    parsed.password = '';
  }
  let outcome: { status: number; text: string };
  try {
    outcome = await guard.fetch(
      parsed,
      { method: 'POST', headers, body, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
      async (response) => ({
        status: response.status,
        text: (await response.text()).slice(0, 200),
      }),
    );
  } catch (error) {
    throw outboundFailure(error, target);
  }
  if (outcome.status < 200 || outcome.status >= 300) {
    const detail = outcome.text.trim().replace(/\s+/g, ' ');
    throw new DeliveryError(`${target} answered ${outcome.status}${detail ? `: ${detail}` : ''}`);
  }
}

/** One adapter per outside system; each sends one message and throws DeliveryError when it did not arrive. */
export function createChannelSenders(deps: ChannelDeps) {
  return {
    async email(message: OutgoingMessage, to: string): Promise<void> {
      if (!deps.mailer) throw new DeliveryError('E-mail is not set up on this hub (SMTP_URL and SMTP_FROM)');
      const link = absoluteLink(deps.publicUrl, message.link);
      const text = [message.body ?? message.title, link ? `\nOpen: ${link}` : null, `\n— ${deps.hubName()}`]
        .filter((line) => line !== null)
        .join('\n');
      try {
        await deps.mailer.send({ to, subject: `[${deps.hubName()}] ${message.title}`, text });
      } catch (error) {
        throw new DeliveryError(`The mail server refused it: ${(error as Error).message}`);
      }
    },

    async homeAssistant(message: OutgoingMessage, service: string): Promise<void> {
      const url = absoluteLink(deps.publicUrl, message.link);
      const name = service.replace(/^notify\./, '');
      try {
        await deps.homeAssistant.notify(name, {
          title: message.title,
          message: message.body ?? message.title,
          // The companion apps open data.url when the notification is tapped.
          ...(url && { data: { url, clickAction: url } }),
        });
      } catch (error) {
        throw new DeliveryError(`Home Assistant (${service}): ${(error as Error).message}`);
      }
    },

    async ntfy(message: OutgoingMessage, settings: ChannelSettings['ntfy']): Promise<void> {
      if (!settings.url || !settings.topic) throw new DeliveryError('ntfy needs a server URL and a topic');
      const headers: Record<string, string> = {
        'content-type': 'text/plain; charset=utf-8',
        Title: headerText(message.title),
        Priority: NTFY_PRIORITY[message.level],
        Tags: `${NTFY_TAG[message.level]},${message.category}`,
      };
      const click = absoluteLink(deps.publicUrl, message.link);
      if (click) headers.Click = click;
      if (settings.token) headers.Authorization = `Bearer ${settings.token}`;
      const base = settings.url.replace(/\/+$/, '');
      await guardedPost(deps.guard, `${base}/${settings.topic}`, headers, message.body ?? message.title);
    },

    async webhook(message: OutgoingMessage, settings: ChannelSettings['webhook'], deliveryId: number) {
      if (!settings.url) throw new DeliveryError('The webhook needs a URL');
      const sentAt = new Date(deps.now());
      const body = webhookBody(message, deps.hubName(), sentAt, deps.publicUrl);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'X-Nexus-Event': 'notification',
        'X-Nexus-Delivery': String(deliveryId),
        'X-Nexus-Timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      };
      if (settings.secret) headers['X-Nexus-Signature'] = webhookSignature(settings.secret, body);
      await guardedPost(deps.guard, settings.url, headers, body);
    },
  };
}

export type ChannelSenders = ReturnType<typeof createChannelSenders>;
