import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * Outbound reachability as the hub itself sees it: can names be resolved, can a TCP connection
 * be opened. Used by the setup wizard's network check; every call ends within its timeout.
 */
export interface NetworkProbe {
  resolve(
    hostname: string,
    timeoutMs: number,
  ): Promise<{ ok: true; address: string } | { ok: false; reason: string }>;
  connect(
    host: string,
    port: number,
    timeoutMs: number,
  ): Promise<{ ok: true; ms: number } | { ok: false; reason: string }>;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const reasonOf = (error: unknown) => (error as { code?: string }).code ?? (error as Error).message;

export function createNetworkProbe(): NetworkProbe {
  return {
    async resolve(hostname, timeoutMs) {
      try {
        const { address } = await withTimeout(dns.lookup(hostname), timeoutMs);
        return { ok: true, address };
      } catch (error) {
        return { ok: false, reason: reasonOf(error) };
      }
    },

    connect(host, port, timeoutMs) {
      return new Promise((resolve) => {
        const started = performance.now();
        const socket = net.connect({ host, port });
        const finish = (result: { ok: true; ms: number } | { ok: false; reason: string }) => {
          socket.destroy();
          resolve(result);
        };
        socket.setTimeout(timeoutMs, () => finish({ ok: false, reason: 'ETIMEDOUT' }));
        socket.once('connect', () => finish({ ok: true, ms: Math.round(performance.now() - started) }));
        socket.once('error', (error) => finish({ ok: false, reason: reasonOf(error) }));
      });
    },
  };
}
