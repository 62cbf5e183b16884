import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { NotificationChannel, NotificationChannelsInput } from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { notificationChannels } from './notifications.table.js';

/** The hub's default Home Assistant notify service: HA's own `notify.notify` (every notifier). */
export const DEFAULT_HA_NOTIFY_SERVICE = 'notify.notify';

const configSchemas = {
  email: z.object({}).passthrough(),
  homeAssistant: z.object({ service: z.string().default(DEFAULT_HA_NOTIFY_SERVICE) }),
  ntfy: z.object({ url: z.string().default(''), topic: z.string().default('') }),
  webhook: z.object({ url: z.string().default('') }),
};

/** A channel's settings as the sender needs them: with the opened secret, never for an API answer. */
export interface ChannelSettings {
  email: { enabled: boolean };
  homeAssistant: { enabled: boolean; service: string };
  ntfy: { enabled: boolean; url: string; topic: string; token: string | null };
  webhook: { enabled: boolean; url: string; secret: string | null };
}

/**
 * The admin's channel settings in notification_channels: the ntfy token and the webhook secret are
 * sealed with the hub's secret box (secret_sealed) and only ever leave this module to the sender.
 */
export function createChannelSettings(deps: { db: Db; secrets: SecretBox; now: () => number }) {
  function row(channel: NotificationChannel) {
    return deps.db.select().from(notificationChannels).where(eq(notificationChannels.channel, channel)).get();
  }
  function config<C extends NotificationChannel>(channel: C) {
    const stored = row(channel);
    let value: unknown;
    try {
      value = stored ? JSON.parse(stored.config) : {};
    } catch {
      value = {};
    }
    const parsed = configSchemas[channel].safeParse(value);
    return {
      enabled: stored?.enabled ?? false,
      config: (parsed.success ? parsed.data : configSchemas[channel].parse({})) as z.infer<
        (typeof configSchemas)[C]
      >,
      secretSealed: stored?.secretSealed ?? null,
    };
  }
  function openSecret(sealed: string | null): string | null {
    if (!sealed) return null;
    try {
      return deps.secrets.open(sealed);
    } catch {
      // A secret sealed with another key cannot be used; the admin enters it again.
      return null;
    }
  }
  function write(
    channel: NotificationChannel,
    enabled: boolean,
    value: object,
    secret: string | null | undefined,
  ) {
    const current = row(channel);
    const secretSealed =
      secret === undefined ? (current?.secretSealed ?? null) : secret ? deps.secrets.seal(secret) : null;
    const values = {
      channel,
      enabled,
      config: JSON.stringify(value),
      secretSealed,
      updatedAt: new Date(deps.now()),
    };
    deps.db
      .insert(notificationChannels)
      .values(values)
      .onConflictDoUpdate({ target: notificationChannels.channel, set: values })
      .run();
  }

  function get(): ChannelSettings {
    const email = config('email');
    const ha = config('homeAssistant');
    const ntfy = config('ntfy');
    const webhook = config('webhook');
    return {
      email: { enabled: email.enabled },
      homeAssistant: { enabled: ha.enabled, service: ha.config.service },
      ntfy: { enabled: ntfy.enabled, ...ntfy.config, token: openSecret(ntfy.secretSealed) },
      webhook: { enabled: webhook.enabled, ...webhook.config, secret: openSecret(webhook.secretSealed) },
    };
  }

  return {
    get,
    /** Applies an admin's change; omitted channels and fields keep their value, "" removes a secret. */
    update(input: NotificationChannelsInput): ChannelSettings {
      const current = get();
      deps.db.transaction(() => {
        if (input.email) write('email', input.email.enabled, {}, undefined);
        if (input.homeAssistant) {
          write(
            'homeAssistant',
            input.homeAssistant.enabled,
            { service: input.homeAssistant.service ?? current.homeAssistant.service },
            undefined,
          );
        }
        if (input.ntfy) {
          write(
            'ntfy',
            input.ntfy.enabled,
            { url: input.ntfy.url ?? current.ntfy.url, topic: input.ntfy.topic ?? current.ntfy.topic },
            input.ntfy.token,
          );
        }
        if (input.webhook) {
          write(
            'webhook',
            input.webhook.enabled,
            { url: input.webhook.url ?? current.webhook.url },
            input.webhook.secret,
          );
        }
      });
      return get();
    },
  };
}

export type ChannelSettingsStore = ReturnType<typeof createChannelSettings>;
