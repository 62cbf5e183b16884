import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, count, max, min } from 'drizzle-orm';
import {
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotificationDelivery,
} from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import { users } from '../auth/index.js';
import type { ChannelSettings, ChannelSettingsStore } from './channel-settings.js';
import { DeliveryError, type ChannelSenders, type OutgoingMessage } from './channels.js';
import { notificationDeliveries, notifications, type NotificationRow } from './notifications.table.js';
import type { PreferencesStore } from './preferences.js';

/** Waits before the 2nd, 3rd, 4th and 5th attempt; after the 5th failure a delivery is failed. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000] as const;
export const DEFAULT_MAX_ATTEMPTS = 5;
/**
 * The longest the worker sleeps while a retry is pending. It wakes when the earliest retry falls
 * due (new deliveries are sent at once); the cap bounds how late a retry can be after the wall
 * clock jumps, as it does when a hub without a battery-backed clock syncs its time after boot.
 */
export const DEFAULT_POLL_MS = 5_000;
/** Due deliveries sent per pass, so one pass after a long outage does not hold everything at once. */
const BATCH = 20;

/** Personal channels go to each recipient; hub-wide ones go once (user_id null). */
const HUB_WIDE: ReadonlySet<NotificationChannel> = new Set(['ntfy', 'webhook']);

export interface OutboxOptions {
  /** Back-off before each retry; the last value repeats. Tests shorten it. */
  retryDelaysMs?: readonly number[];
  maxAttempts?: number;
  pollMs?: number;
}

export interface ChannelHealth {
  lastSentAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  pending: number;
}

type DeliveryRow = typeof notificationDeliveries.$inferSelect;

/**
 * The outbox: every notification that leaves the hub is a row in notification_deliveries, written
 * in the same moment as the notification; a worker sends due rows, retries failures with back-off
 * and gives up after `maxAttempts`, keeping the last error for the console. Rows outlive restarts,
 * so a pending delivery is resumed when the agent starts again.
 */
export function createOutbox(deps: {
  db: Db;
  log: Logger;
  settings: ChannelSettingsStore;
  preferences: PreferencesStore;
  senders: ChannelSenders;
  now: () => number;
  options?: OutboxOptions;
}) {
  const { db, log, now } = deps;
  const delays = deps.options?.retryDelaysMs?.length ? deps.options.retryDelaysMs : DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = deps.options?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const pollMs = deps.options?.pollMs ?? DEFAULT_POLL_MS;
  /** Last failure per channel in this process (the rows keep the error, not when a retry failed). */
  const recentFailure = new Map<NotificationChannel, { at: Date; error: string }>();
  /** Successful channel tests (they have no delivery row). */
  const recentTest = new Map<NotificationChannel, Date>();
  let running = false;
  let again = false;
  let stopped = false;
  let started = false;
  /** The one timer, set for the earliest pending retry: none while nothing is pending. */
  let wake: ReturnType<typeof setTimeout> | null = null;

  function channelEnabled(settings: ChannelSettings, channel: NotificationChannel, emailReady: boolean) {
    if (channel === 'email') return settings.email.enabled && emailReady;
    return settings[channel].enabled;
  }

  /** Who receives a notification: its one account, or every account that is not disabled. */
  function recipients(row: NotificationRow) {
    const where =
      row.userId === null
        ? isNull(users.disabledAt)
        : and(eq(users.id, row.userId), isNull(users.disabledAt));
    return db.select({ id: users.id, email: users.email }).from(users).where(where).all();
  }

  /** Writes the deliveries a new notification needs (none when no channel is on or wanted). */
  function enqueue(row: NotificationRow, emailReady: boolean): number {
    const settings = deps.settings.get();
    const channels = NOTIFICATION_CHANNELS.filter((c) => channelEnabled(settings, c, emailReady));
    if (channels.length === 0) return 0;
    const people = recipients(row).map((p) => ({ ...p, prefs: deps.preferences.get(p.id) }));
    const t = new Date(now());
    const rows: (typeof notificationDeliveries.$inferInsert)[] = [];
    for (const channel of channels) {
      const wanting = people.filter((p) => p.prefs.categories[row.category]?.[channel]);
      if (wanting.length === 0) continue;
      if (HUB_WIDE.has(channel)) {
        rows.push({ notificationId: row.id, userId: null, channel, nextAttemptAt: t, createdAt: t });
      } else {
        for (const p of wanting) {
          rows.push({ notificationId: row.id, userId: p.id, channel, nextAttemptAt: t, createdAt: t });
        }
      }
    }
    if (rows.length) db.insert(notificationDeliveries).values(rows).run();
    return rows.length;
  }

  function message(row: NotificationRow): OutgoingMessage {
    return {
      id: row.id,
      category: row.category,
      level: row.level,
      title: row.title,
      body: row.body,
      link: row.link,
      createdAt: row.createdAt,
    };
  }

  /** Sends one delivery; throws DeliveryError (or anything else) when it did not arrive. */
  async function send(delivery: DeliveryRow, row: NotificationRow, settings: ChannelSettings) {
    const out = message(row);
    switch (delivery.channel) {
      case 'email': {
        const person = db
          .select({ email: users.email })
          .from(users)
          .where(eq(users.id, delivery.userId ?? -1))
          .get();
        if (!person) throw new DeliveryError('The account no longer exists');
        return deps.senders.email(out, person.email);
      }
      case 'homeAssistant': {
        const own = delivery.userId ? deps.preferences.get(delivery.userId).homeAssistantService : null;
        return deps.senders.homeAssistant(out, own ?? settings.homeAssistant.service);
      }
      case 'ntfy':
        return deps.senders.ntfy(out, settings.ntfy);
      case 'webhook':
        return deps.senders.webhook(out, settings.webhook, delivery.id);
    }
  }

  function record(delivery: DeliveryRow, error: unknown) {
    const at = new Date(now());
    if (error === null) {
      db.update(notificationDeliveries)
        .set({
          status: 'sent',
          attempts: delivery.attempts + 1,
          sentAt: at,
          lastError: null,
          nextAttemptAt: null,
        })
        .where(eq(notificationDeliveries.id, delivery.id))
        .run();
      return;
    }
    const text =
      error instanceof DeliveryError
        ? error.message
        : `Unexpected failure: ${(error as Error)?.message ?? error}`;
    const attempts = delivery.attempts + 1;
    const final = attempts >= maxAttempts;
    recentFailure.set(delivery.channel, { at, error: text });
    db.update(notificationDeliveries)
      .set({
        status: final ? 'failed' : 'pending',
        attempts,
        lastError: text,
        // A failed row keeps the time it gave up here (no retry is due); the API shows null for it.
        nextAttemptAt: final
          ? at
          : new Date(at.getTime() + delays[Math.min(attempts - 1, delays.length - 1)]!),
      })
      .where(eq(notificationDeliveries.id, delivery.id))
      .run();
    // The channel and notification id only: never the URL, token or the message itself.
    log.warn(
      {
        channel: delivery.channel,
        deliveryId: delivery.id,
        notificationId: delivery.notificationId,
        attempts,
        final,
      },
      final
        ? 'a notification could not be delivered; giving up'
        : 'a notification delivery failed; will retry',
    );
  }

  /** One pass over due deliveries, repeated while more are due. */
  async function drain(): Promise<void> {
    for (;;) {
      if (stopped) return;
      const due = db
        .select()
        .from(notificationDeliveries)
        .where(
          and(
            eq(notificationDeliveries.status, 'pending'),
            lte(notificationDeliveries.nextAttemptAt, new Date(now())),
          ),
        )
        .orderBy(asc(notificationDeliveries.nextAttemptAt), asc(notificationDeliveries.id))
        .limit(BATCH)
        .all();
      if (due.length === 0) return;
      const settings = deps.settings.get();
      const rows = new Map(
        db
          .select()
          .from(notifications)
          .where(inArray(notifications.id, [...new Set(due.map((d) => d.notificationId))]))
          .all()
          .map((r) => [r.id, r]),
      );
      // Channels in parallel, each channel's deliveries in order (one slow server holds only its own).
      const byChannel = new Map<NotificationChannel, DeliveryRow[]>();
      for (const d of due) byChannel.set(d.channel, [...(byChannel.get(d.channel) ?? []), d]);
      await Promise.all(
        [...byChannel.entries()].map(async ([channel, list]) => {
          for (const delivery of list) {
            const row = rows.get(delivery.notificationId);
            if (!row) continue; // deleted meanwhile: the cascade removed the delivery too
            if (!settings[channel].enabled) {
              // Turned off after it was queued: no retry will ever go out.
              db.update(notificationDeliveries)
                .set({
                  status: 'failed',
                  lastError: 'The channel was turned off before it was sent',
                  nextAttemptAt: new Date(now()),
                })
                .where(eq(notificationDeliveries.id, delivery.id))
                .run();
              continue;
            }
            let error: unknown = null;
            try {
              await send(delivery, row, settings);
            } catch (e) {
              error = e ?? new Error('failed');
            }
            record(delivery, error);
          }
        }),
      );
    }
  }

  /** When the earliest pending delivery is due, or null when none is pending. */
  function earliestPendingAt(): number | null {
    const [row] = db
      .select({ at: min(notificationDeliveries.nextAttemptAt) })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.status, 'pending'))
      .all();
    return row?.at ? row.at.getTime() : null;
  }

  /**
   * Sets the timer for the next look: when the earliest pending retry falls due (at most pollMs
   * away), or none when nothing is pending. It used to look every pollMs whatever the queue held,
   * a tenth of an idle hub's CPU spent building one query (docs/performance.md, "Idle"). After a
   * pass that failed it waits pollMs, so a broken database is not asked again at once.
   */
  function scheduleNextLook(passFailed: boolean) {
    if (wake) clearTimeout(wake);
    wake = null;
    if (stopped || !started) return;
    let wait: number | null = pollMs;
    if (!passFailed) {
      try {
        const due = earliestPendingAt();
        wait = due === null ? null : Math.min(Math.max(due - now(), 0), pollMs);
      } catch (err) {
        log.warn({ err }, 'notification delivery: could not read the pending retries');
      }
    }
    if (wait === null) return;
    wake = setTimeout(kick, wait);
    wake.unref();
  }

  /** Runs the worker now (again after the current pass, if one is running). */
  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    let passFailed = true;
    inBackground(log, 'notification delivery', async () => {
      try {
        do {
          again = false;
          await drain();
        } while (again && !stopped);
        passFailed = false;
      } finally {
        running = false;
        scheduleNextLook(passFailed);
      }
    });
  }

  return {
    enqueue(row: NotificationRow, emailReady: boolean) {
      if (enqueue(row, emailReady) > 0) kick();
    },

    kick,

    /** Sends what is due now and resolves when done (tests; the timer uses kick). */
    runDue: () => drain(),

    /** Sends retries as they fall due (and, at once, what a previous run left pending). */
    start(): () => void {
      started = true;
      kick();
      return () => {
        stopped = true;
        if (wake) clearTimeout(wake);
        wake = null;
      };
    },

    /** The deliveries a user sees for these notifications: theirs and the hub-wide ones. */
    deliveriesFor(userId: number, ids: number[]): Map<number, NotificationDelivery[]> {
      const result = new Map<number, NotificationDelivery[]>();
      if (ids.length === 0) return result;
      const rows = db
        .select()
        .from(notificationDeliveries)
        .where(
          and(
            inArray(notificationDeliveries.notificationId, ids),
            or(eq(notificationDeliveries.userId, userId), isNull(notificationDeliveries.userId)),
          ),
        )
        .orderBy(asc(notificationDeliveries.id))
        .all();
      for (const d of rows) {
        const list = result.get(d.notificationId) ?? [];
        list.push({
          channel: d.channel,
          status: d.status,
          attempts: d.attempts,
          lastError: d.status === 'sent' ? null : d.lastError,
          nextAttemptAt: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
          sentAt: d.sentAt ? d.sentAt.toISOString() : null,
        });
        result.set(d.notificationId, list);
      }
      return result;
    },

    /** A channel's record for the settings screen: last success, last failure, retries waiting. */
    health(channel: NotificationChannel): ChannelHealth {
      const byChannel = eq(notificationDeliveries.channel, channel);
      const sent = db
        .select({ at: max(notificationDeliveries.sentAt) })
        .from(notificationDeliveries)
        .where(byChannel)
        .get()?.at;
      const pending =
        db
          .select({ n: count() })
          .from(notificationDeliveries)
          .where(and(byChannel, eq(notificationDeliveries.status, 'pending')))
          .get()?.n ?? 0;
      const lastFailed = db
        .select({ at: notificationDeliveries.nextAttemptAt, error: notificationDeliveries.lastError })
        .from(notificationDeliveries)
        .where(
          and(
            byChannel,
            eq(notificationDeliveries.status, 'failed'),
            isNotNull(notificationDeliveries.lastError),
          ),
        )
        .orderBy(desc(notificationDeliveries.nextAttemptAt))
        .limit(1)
        .get();
      let failure = lastFailed?.at ? { at: lastFailed.at, error: lastFailed.error ?? '' } : null;
      const recent = recentFailure.get(channel);
      if (recent && (!failure || recent.at > failure.at)) failure = recent;
      let sentAt = sent ? new Date(sent) : null;
      const tested = recentTest.get(channel);
      if (tested && (!sentAt || tested > sentAt)) sentAt = tested;
      // A failure older than the last success is history, not the channel's state.
      const current = failure && (!sentAt || failure.at > sentAt) ? failure : null;
      return {
        lastSentAt: sentAt ? sentAt.toISOString() : null,
        lastFailureAt: failure ? failure.at.toISOString() : null,
        lastError: current ? current.error : null,
        pending,
      };
    },

    /** A channel test's outcome counts in its health like a delivery's. */
    noteTest(channel: NotificationChannel, error: string | null) {
      if (error !== null) recentFailure.set(channel, { at: new Date(now()), error });
      else recentTest.set(channel, new Date(now()));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
