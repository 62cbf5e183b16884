import type { DockerAdapter } from '../../adapters/docker.js';

/** How long a stop, restart or remove the console asked for explains the container's next `die`. */
export const DELIBERATE_WINDOW_MS = 120_000;

/**
 * The console's own stops: a container the owner stops, restarts or removes through the agent
 * also "dies" in the engine's event stream, and that must not read as a crash. The docker feature
 * gets the engine through `wrap()`, which marks each container it is asked to stop; the container
 * alerts consume the mark on the `die` that follows. A `kill` sent to the engine directly (docker
 * kill, the OOM killer, a crash) carries no mark.
 */
export function createDeliberateStops(now: () => number = Date.now) {
  /** The reference the console used (an id, a short id or a name) → until when it counts. */
  const marks = new Map<string, number>();

  function mark(ref: string) {
    const t = now();
    for (const [k, until] of marks) if (until < t) marks.delete(k);
    marks.set(ref, t + DELIBERATE_WINDOW_MS);
  }

  return {
    mark,

    /** Whether a die of this container was asked for (and forgets the mark). */
    consume(id: string, name: string | undefined): boolean {
      const t = now();
      for (const [ref, until] of marks) {
        if (until < t) {
          marks.delete(ref);
          continue;
        }
        if (ref === name || (ref.length >= 12 && id.startsWith(ref)) || ref === id) {
          marks.delete(ref);
          return true;
        }
      }
      return false;
    },

    /** The engine as the docker feature should use it: stops through it are marked first. */
    wrap(engine: DockerAdapter): DockerAdapter {
      return {
        ...engine,
        endpoint: engine.endpoint,
        stopContainer: (id, t) => (mark(id), engine.stopContainer(id, t)),
        restartContainer: (id, t) => (mark(id), engine.restartContainer(id, t)),
        removeContainer: (id, opts) => (mark(id), engine.removeContainer(id, opts)),
      };
    },
  };
}

export type DeliberateStops = ReturnType<typeof createDeliberateStops>;
