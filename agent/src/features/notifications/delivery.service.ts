import type { Mailer } from '../../adapters/mailer.js';
import type { OutboundGuard } from '../../adapters/outbound-guard.js';
import type {
  ChannelTestResult,
  NotificationChannel,
  NotificationChannels,
  NotificationChannelsInput,
  NotificationList,
  NotificationPreferences,
  NotificationPreferencesInput,
} from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { users } from '../auth/index.js';
import { eq } from 'drizzle-orm';
import { createChannelSettings } from './channel-settings.js';
import { createChannelSenders, DeliveryError, type HaNotifyPort, type OutgoingMessage } from './channels.js';
import { createNotificationRepository } from './notifications.repository.js';
import type { NotificationService } from './notifications.service.js';
import { createOutbox, type OutboxOptions } from './outbox.js';
import { createPreferencesStore } from './preferences.js';

/** One line per channel for the integrations overview (GET /api/integrations). */
export interface ChannelStatus {
  channel: NotificationChannel;
  enabled: boolean;
  /** Has what it needs to send (SMTP set up; a URL and topic; a URL). */
  configured: boolean;
  state: 'off' | 'ok' | 'failing' | 'unknown';
  lastSentAt: string | null;
  lastError: string | null;
}

/**
 * Notifications beyond the console: per-user preferences, the admin's channels, the outbox that
 * carries each new notification to the channels people want, and the channels' "send test".
 */
export function createNotificationDelivery(deps: {
  db: Db;
  log: Logger;
  secrets: SecretBox;
  notifications: NotificationService;
  mailer: Mailer | null;
  homeAssistant: HaNotifyPort;
  guard: OutboundGuard;
  publicUrl: string | null;
  hubName: () => string;
  now?: () => number;
  outbox?: OutboxOptions;
}) {
  const now = deps.now ?? Date.now;
  const settings = createChannelSettings({ db: deps.db, secrets: deps.secrets, now });
  const preferences = createPreferencesStore(deps.db, now);
  const senders = createChannelSenders({ ...deps, now });
  const repo = createNotificationRepository(deps.db);
  const outbox = createOutbox({
    db: deps.db,
    log: deps.log,
    settings,
    preferences,
    senders,
    now,
    options: deps.outbox,
  });
  const emailReady = deps.mailer !== null;

  // Every notification, whoever created it, goes through the outbox.
  deps.notifications.onCreated(({ notification }) => {
    const [row] = repo.byIds([notification.id]);
    if (row) outbox.enqueue(row, emailReady);
  });

  async function view(): Promise<NotificationChannels> {
    const s = settings.get();
    const available = await deps.homeAssistant.services().catch(() => []);
    return {
      email: { enabled: s.email.enabled, configured: emailReady, health: outbox.health('email') },
      homeAssistant: {
        enabled: s.homeAssistant.enabled,
        service: s.homeAssistant.service,
        available,
        health: outbox.health('homeAssistant'),
      },
      ntfy: {
        enabled: s.ntfy.enabled,
        url: s.ntfy.url,
        topic: s.ntfy.topic,
        hasToken: s.ntfy.token !== null,
        health: outbox.health('ntfy'),
      },
      webhook: {
        enabled: s.webhook.enabled,
        // A URL may carry credentials (https://user:pass@…); admins see them, they set them.
        url: s.webhook.url,
        hasSecret: s.webhook.secret !== null,
        health: outbox.health('webhook'),
      },
    };
  }

  return {
    preferences: {
      get: (userId: number): NotificationPreferences => preferences.get(userId),
      update: (userId: number, input: NotificationPreferencesInput) => preferences.update(userId, input),
    },

    /** The list with each notification's deliveries for this user. */
    withDeliveries(userId: number, list: NotificationList): NotificationList {
      const deliveries = outbox.deliveriesFor(
        userId,
        list.notifications.map((n) => n.id),
      );
      return {
        ...list,
        notifications: list.notifications.map((n) => ({ ...n, deliveries: deliveries.get(n.id) ?? [] })),
      };
    },

    channels: view,

    haServices: (): Promise<string[]> => deps.homeAssistant.services().catch(() => []),

    async updateChannels(input: NotificationChannelsInput): Promise<NotificationChannels> {
      const current = settings.get();
      // An enabled channel must be able to send; a disabled one may keep half-filled settings.
      if (input.ntfy?.enabled && !(input.ntfy.url ?? current.ntfy.url)) {
        throw badRequest('ntfy needs the server URL, e.g. https://ntfy.sh');
      }
      if (input.ntfy?.enabled && !(input.ntfy.topic ?? current.ntfy.topic)) {
        throw badRequest('ntfy needs a topic');
      }
      if (input.webhook?.enabled && !(input.webhook.url ?? current.webhook.url)) {
        throw badRequest('The webhook needs a URL');
      }
      if (input.email?.enabled && !emailReady) {
        throw badRequest('E-mail needs SMTP_URL and SMTP_FROM in the hub’s environment');
      }
      settings.update(input);
      return view();
    },

    /** Sends a test now, outside the outbox, and answers with what really happened. */
    async test(channel: NotificationChannel, admin: { id: number }): Promise<ChannelTestResult> {
      const s = settings.get();
      const message: OutgoingMessage = {
        id: 0,
        category: 'system',
        level: 'info',
        title: 'Test notification from Nexus',
        body: `A test of the ${channel} channel, sent from the console.`,
        link: '/notifications',
        createdAt: new Date(now()),
      };
      let done: string;
      try {
        switch (channel) {
          case 'email': {
            const me = deps.db.select({ email: users.email }).from(users).where(eq(users.id, admin.id)).get();
            if (!me) throw new DeliveryError('Your account has no e-mail address');
            await senders.email(message, me.email);
            done = `Sent to ${me.email}`;
            break;
          }
          case 'homeAssistant': {
            const service = preferences.get(admin.id).homeAssistantService ?? s.homeAssistant.service;
            await senders.homeAssistant(message, service);
            done = `Home Assistant accepted ${service}`;
            break;
          }
          case 'ntfy':
            await senders.ntfy(message, s.ntfy);
            done = `ntfy accepted it for the topic ${s.ntfy.topic}`;
            break;
          case 'webhook':
            await senders.webhook(message, s.webhook, 0);
            done = 'The webhook answered with success';
            break;
        }
      } catch (error) {
        const text =
          error instanceof DeliveryError ? error.message : `Unexpected failure: ${(error as Error).message}`;
        outbox.noteTest(channel, text);
        return { ok: false, message: text };
      }
      outbox.noteTest(channel, null);
      return { ok: true, message: done };
    },

    /** For the integrations overview: each channel's state without its settings. */
    channelStatus(): ChannelStatus[] {
      const s = settings.get();
      const configured: Record<NotificationChannel, boolean> = {
        email: emailReady,
        homeAssistant: true,
        ntfy: Boolean(s.ntfy.url && s.ntfy.topic),
        webhook: Boolean(s.webhook.url),
      };
      return (['email', 'homeAssistant', 'ntfy', 'webhook'] as const).map((channel) => {
        const health = outbox.health(channel);
        const enabled = s[channel].enabled;
        return {
          channel,
          enabled,
          configured: configured[channel],
          state: !enabled ? 'off' : health.lastError ? 'failing' : health.lastSentAt ? 'ok' : 'unknown',
          lastSentAt: health.lastSentAt,
          lastError: health.lastError,
        };
      });
    },

    /** Sends what is due now and resolves when done (tests drive the outbox with it and a fake clock). */
    runDue: () => outbox.runDue(),

    /** Starts the retry timer; returns its stop (for deps.onShutdown). */
    start: () => outbox.start(),
  };
}

export type NotificationDeliveryService = ReturnType<typeof createNotificationDelivery>;
