import type { LiveSocketLike } from './live';

/** A WebSocket the test drives as the agent would: open it, send it messages, drop it. */
export class FakeSocket implements LiveSocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: LiveSocketLike['onopen'] = null;
  onmessage: LiveSocketLike['onmessage'] = null;
  onclose: LiveSocketLike['onclose'] = null;
  onerror: LiveSocketLike['onerror'] = null;

  constructor(readonly url: string) {}

  send(data: string) {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // What the agent does to the socket:
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

/**
 * A LiveClient's `createSocket` that makes FakeSockets, and the list of those it made (the client
 * opens a new one at each reconnect), for a test to drive.
 */
export function fakeSockets(): {
  sockets: FakeSocket[];
  createSocket: (url: string) => FakeSocket;
} {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  };
}
