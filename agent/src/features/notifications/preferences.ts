import { eq } from 'drizzle-orm';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  notificationPreferencesSchema,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationPreferences,
  type NotificationPreferencesInput,
} from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import { notificationPreferences } from './notifications.table.js';

type ChannelChoice = Record<NotificationChannel, boolean>;

const on = (...channels: NotificationChannel[]): ChannelChoice =>
  Object.fromEntries(NOTIFICATION_CHANNELS.map((c) => [c, channels.includes(c)])) as ChannelChoice;

/**
 * What a person gets before they choose (the console always shows everything):
 * - ntfy and webhook: every category. They are hub-wide channels an admin turns on on purpose, so
 *   once one is on it carries everything unless people opt out.
 * - e-mail: the things someone must act on even away from the hub: security (a sign-in from a new
 *   device), failed backups and the licence or trial running out. Faults that clear by themselves
 *   (a container restarting, HA reconnecting) would make e-mail noise.
 * - Home Assistant push (the companion app): security, containers, system (disk, memory, heat),
 *   satellites and backups: a phone notification for hub faults. Not 'home-assistant': when HA is
 *   down it cannot deliver the news that it is down.
 */
export const DEFAULT_CHANNELS: Record<NotificationCategory, ChannelChoice> = {
  containers: on('homeAssistant', 'ntfy', 'webhook'),
  'home-assistant': on('ntfy', 'webhook'),
  llm: on('ntfy', 'webhook'),
  satellites: on('homeAssistant', 'ntfy', 'webhook'),
  flows: on('ntfy', 'webhook'),
  system: on('homeAssistant', 'ntfy', 'webhook'),
  vpn: on('ntfy', 'webhook'),
  subscription: on('email', 'ntfy', 'webhook'),
  security: on('email', 'homeAssistant', 'ntfy', 'webhook'),
  backups: on('email', 'homeAssistant', 'ntfy', 'webhook'),
};

export function defaultPreferences(): NotificationPreferences {
  return {
    categories: Object.fromEntries(
      NOTIFICATION_CATEGORIES.map((c) => [c, { ...DEFAULT_CHANNELS[c] }]),
    ) as NotificationPreferences['categories'],
    homeAssistantService: null,
  };
}

/** Per-user preferences in notification_preferences (JSON); missing categories take the defaults. */
export function createPreferencesStore(db: Db, now: () => number) {
  function get(userId: number): NotificationPreferences {
    const row = db
      .select({ value: notificationPreferences.value })
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, userId))
      .get();
    const base = defaultPreferences();
    if (!row) return base;
    let stored: Partial<NotificationPreferences> = {};
    try {
      const parsed = notificationPreferencesSchema.partial().safeParse(JSON.parse(row.value));
      if (parsed.success) stored = parsed.data;
    } catch {
      // An unreadable row is treated as no choice made: the defaults apply.
    }
    for (const category of NOTIFICATION_CATEGORIES) {
      const choice = stored.categories?.[category];
      if (choice) base.categories[category] = { ...base.categories[category], ...choice };
    }
    base.homeAssistantService = stored.homeAssistantService ?? null;
    return base;
  }

  return {
    get,

    update(userId: number, input: NotificationPreferencesInput): NotificationPreferences {
      const next = get(userId);
      for (const [category, choice] of Object.entries(input.categories ?? {})) {
        const key = category as NotificationCategory;
        next.categories[key] = { ...next.categories[key], ...choice };
      }
      if (input.homeAssistantService !== undefined) next.homeAssistantService = input.homeAssistantService;
      const value = JSON.stringify(next);
      const updatedAt = new Date(now());
      db.insert(notificationPreferences)
        .values({ userId, value, updatedAt })
        .onConflictDoUpdate({ target: notificationPreferences.userId, set: { value, updatedAt } })
        .run();
      return next;
    },
  };
}

export type PreferencesStore = ReturnType<typeof createPreferencesStore>;
