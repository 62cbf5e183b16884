import type { DockerAdapter, LogFollow, LogLine } from '../../adapters/docker.js';
import { DOCKER_LOGS_TOPIC, type DockerLogsEvent } from '../../contract/docker.js';
import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import type { LivePublisher } from '../../live/hub.js';

/** A batch goes out this often while lines arrive, or sooner when it is full. */
export const BATCH_INTERVAL_MS = 100;
/** The most lines one batch (one live event) holds; a full batch goes out at once. */
export const MAX_BATCH_LINES = 500;
/**
 * Above this many lines in one second the rest of that second is dropped and counted ("coalesced"):
 * no browser can show more, and it bounds what one chatty container costs every watcher.
 */
export const MAX_LINES_PER_SECOND = 20_000;
/** While subscribers remain, a stopped container is checked this often to follow it again. */
const REATTACH_INTERVAL_MS = 2_000;

interface Follower {
  stop(): void;
}

/**
 * Follows a container's logs while anyone subscribes to `docker.logs.<container>` on the live
 * channel: one engine stream per container however many browsers watch, started by the first
 * subscriber and closed after the last leaves. Per-browser back-pressure is the hub's (a bounded
 * queue per socket, oldest dropped); here the engine stream is read continuously into bounded batches.
 */
export function registerDockerLogTopics(deps: {
  live: LivePublisher;
  engine: DockerAdapter;
  log: Logger;
  /** Test and benchmark hook: how many lines were coalesced away, per container. */
  onBatch?: (topic: string, lines: number, coalesced: number) => void;
}) {
  const { live, engine, log } = deps;
  const followers = new Map<string, Follower>();

  function follow(topic: string, container: string): Follower {
    let stopped = false;
    let current: LogFollow | null = null;
    let seq = 0;
    let batch: LogLine[] = [];
    let coalesced = 0;
    let timer: NodeJS.Timeout | null = null;
    let reattach: NodeJS.Timeout | null = null;
    /** Unix seconds of the last line seen, so a re-attach does not repeat lines. */
    let sinceSeconds: number | undefined;

    const publish = (event: DockerLogsEvent) => live.publish(topic, event);

    const flush = () => {
      timer = null;
      if (batch.length === 0 && coalesced === 0) return;
      const lines = batch;
      const dropped = coalesced;
      batch = [];
      coalesced = 0;
      publish({ kind: 'lines', seq: seq++, lines, coalesced: dropped });
      deps.onBatch?.(topic, lines.length, dropped);
    };

    let lastLineAt: number | null = null;
    let windowStart = 0;
    let windowLines = 0;
    const add = (line: LogLine) => {
      if (line.ts) lastLineAt = Date.parse(line.ts);
      const t = Date.now();
      if (t - windowStart >= 1000) {
        windowStart = t;
        windowLines = 0;
      }
      windowLines += 1;
      if (windowLines > MAX_LINES_PER_SECOND) coalesced += 1;
      else batch.push(line);
      if (batch.length >= MAX_BATCH_LINES) {
        if (timer) clearTimeout(timer);
        flush();
        return;
      }
      timer ??= setTimeout(flush, BATCH_INTERVAL_MS);
    };

    const scheduleReattach = () => {
      if (stopped || reattach) return;
      reattach = setTimeout(() => {
        reattach = null;
        inBackground(log, 'docker logs: re-attaching', () => attach(false));
      }, REATTACH_INTERVAL_MS);
      reattach.unref();
    };

    async function attach(first: boolean) {
      if (stopped) return;
      try {
        const info = await engine.inspectContainer(container);
        if (!info.State?.Running) {
          if (first) publish({ kind: 'status', state: 'waiting', message: 'The container is not running' });
          scheduleReattach();
          return;
        }
        const stream = await engine.followLogs(info.Id, {
          tail: 0,
          since: sinceSeconds,
          timestamps: true,
          tty: Boolean(info.Config?.Tty),
        });
        if (stopped) {
          stream.close();
          return;
        }
        current = stream;
        publish({ kind: 'status', state: 'following', message: `Following ${info.Name.replace(/^\//, '')}` });
        stream.lines.on('data', (line: LogLine) => add(line));
        stream.lines.on('error', (err: Error) =>
          log.debug({ err, container }, 'docker logs: follow stream failed'),
        );
        stream.lines.on('close', () => {
          if (current !== stream) return;
          current = null;
          if (timer) {
            clearTimeout(timer);
            flush();
          }
          if (stopped) return;
          // The engine's since is inclusive; a millisecond past the last line seen avoids repeating it.
          sinceSeconds = ((lastLineAt ?? Date.now()) + 1) / 1000;
          publish({
            kind: 'status',
            state: 'waiting',
            message: 'The container stopped; waiting for it to start again',
          });
          scheduleReattach();
        });
      } catch (err) {
        const message = (err as Error).message;
        publish({ kind: 'status', state: 'error', message });
        // An unknown container stays unknown; anything else (engine restarting) is tried again.
        if ((err as { status?: number }).status !== 404) scheduleReattach();
      }
    }

    inBackground(log, 'docker logs: attaching', () => attach(true));
    return {
      stop() {
        stopped = true;
        if (timer) clearTimeout(timer);
        if (reattach) clearTimeout(reattach);
        current?.close();
        current = null;
      },
    };
  }

  live.registerTopic(DOCKER_LOGS_TOPIC, {
    onActive(topic) {
      const container = topic.slice(DOCKER_LOGS_TOPIC.length + 1);
      if (!container || followers.has(topic)) return;
      followers.set(topic, follow(topic, container));
    },
    onIdle(topic) {
      followers.get(topic)?.stop();
      followers.delete(topic);
    },
  });

  return {
    /** For shutdown and tests. */
    stopAll() {
      for (const follower of followers.values()) follower.stop();
      followers.clear();
    },
    following: () => [...followers.keys()],
  };
}
