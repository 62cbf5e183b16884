import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationList } from '@nexus/agent/contract';
import { NOTIFICATIONS_BROADCAST_TOPIC, notificationsUserTopic } from '@nexus/agent/contract';
import { LiveClient } from '@/lib/live';
import { fakeSockets } from '@/lib/live.testing';
import { createQueryClient } from '@/lib/query-client';
import { MENU_LIMIT, followNotifications, notificationsQueryOptions } from './notification-list';

/**
 * The header's bell follows the live channel (a CI run saw it miss a notification on a busy
 * machine: the event came while the first read of the list was still unanswered, and no read
 * started after it).
 */

afterEach(() => {
  vi.unstubAllGlobals();
});

const garage: Notification = {
  id: 1,
  level: 'error',
  category: 'flows',
  title: 'Garage left open',
  body: null,
  link: null,
  broadcast: false,
  createdAt: '2026-11-26T10:00:00.000Z',
  readAt: null,
  deliveries: [],
};
const empty: NotificationList = { notifications: [], unreadCount: 0 };
const withGarage: NotificationList = { notifications: [garage], unreadCount: 1 };

/** The agent's GET /api/notifications, answered by the test one read at a time. */
function heldReads() {
  const reads: { url: string; answer: (list: NotificationList) => void }[] = [];
  vi.stubGlobal(
    'fetch',
    (url: string) =>
      new Promise<Response>((resolve) =>
        reads.push({ url, answer: (list) => resolve(new Response(JSON.stringify(list), { status: 200 })) }),
      ),
  );
  return reads;
}

function setup(userId: number) {
  const reads = heldReads();
  const queryClient = createQueryClient();
  const observer = new QueryObserver(queryClient, notificationsQueryOptions(MENU_LIMIT));
  const stopObserving = observer.subscribe(() => undefined);
  const { sockets, createSocket } = fakeSockets();
  const live = new LiveClient({ url: 'ws://hub.local/api/live', createSocket });
  const stopFollowing = followNotifications(live, queryClient, userId);
  const socket = sockets[0]!;
  socket.open();
  return {
    reads,
    observer,
    socket,
    stop: () => {
      stopFollowing();
      stopObserving();
      live.dispose();
    },
  };
}

/** Lets the cancellations and the reads they start settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('followNotifications', () => {
  it("subscribes to the user's own topic and the broadcast topic", () => {
    const { socket, stop } = setup(7);
    expect(socket.sent).toEqual([
      { type: 'subscribe', topic: NOTIFICATIONS_BROADCAST_TOPIC },
      { type: 'subscribe', topic: notificationsUserTopic(7) },
    ]);
    stop();
  });

  it('reads the list again after an event that came while the first read was unanswered', async () => {
    const { reads, observer, socket, stop } = setup(7);
    socket.receive({ type: 'subscribed', topic: NOTIFICATIONS_BROADCAST_TOPIC });
    socket.receive({ type: 'subscribed', topic: notificationsUserTopic(7) });
    await settle();
    const beforeEvent = reads.length;
    expect(beforeEvent).toBeGreaterThan(0);

    socket.receive({ type: 'event', topic: notificationsUserTopic(7), data: garage });
    await settle();
    expect(reads.length).toBe(beforeEvent + 1);
    expect(reads.at(-1)!.url).toBe(`/api/notifications?limit=${MENU_LIMIT}`);

    // The reads from before the event were answered before the notification existed; they come
    // last, and the bell still counts the one read after it.
    reads.at(-1)!.answer(withGarage);
    for (const read of reads.slice(0, -1)) read.answer(empty);
    await settle();
    expect(observer.getCurrentResult().data).toEqual(withGarage);
    stop();
  });

  it('reads the list again on a broadcast event too, and stops listening when asked', async () => {
    const { reads, observer, socket, stop } = setup(7);
    reads[0]!.answer(empty);
    socket.receive({ type: 'subscribed', topic: NOTIFICATIONS_BROADCAST_TOPIC });
    await settle();
    reads.at(-1)!.answer(empty);
    await settle();
    const settled = reads.length;

    socket.receive({
      type: 'event',
      topic: NOTIFICATIONS_BROADCAST_TOPIC,
      data: { ...garage, broadcast: true },
    });
    await settle();
    expect(reads.length).toBe(settled + 1);
    reads.at(-1)!.answer(withGarage);
    await settle();
    expect(observer.getCurrentResult().data?.unreadCount).toBe(1);

    stop();
    expect(socket.sent.slice(-2)).toEqual([
      { type: 'unsubscribe', topic: NOTIFICATIONS_BROADCAST_TOPIC },
      { type: 'unsubscribe', topic: notificationsUserTopic(7) },
    ]);
  });
});
