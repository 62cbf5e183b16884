import type { DeployEvent, Deployment } from '@nexus/agent/contract';

/** One layer of an image pull, as the engine reports it ("Downloading", "Extracting", "Pull complete"). */
export interface LayerProgress {
  id: string;
  status: string;
  current: number | null;
  total: number | null;
}

export interface ImageProgress {
  image: string;
  /** Layers in the order the engine first mentioned them. */
  layers: LayerProgress[];
  status: string;
  done: boolean;
}

export interface DeployProgress {
  phase: 'running' | 'done' | 'failed';
  steps: string[];
  images: ImageProgress[];
  created: string[];
  started: string[];
  health: { ok: boolean; message: string } | null;
  error: { status: number; message: string; details?: unknown } | null;
  deployment: Deployment | null;
}

export const initialProgress = (): DeployProgress => ({
  phase: 'running',
  steps: [],
  images: [],
  created: [],
  started: [],
  health: null,
  error: null,
  deployment: null,
});

function updateImage(
  state: DeployProgress,
  image: string,
  fn: (img: ImageProgress) => ImageProgress,
): ImageProgress[] {
  const existing = state.images.find((i) => i.image === image);
  const base = existing ?? { image, layers: [], status: 'Waiting', done: false };
  const next = fn(base);
  return existing ? state.images.map((i) => (i.image === image ? next : i)) : [...state.images, next];
}

/** Folds one streamed event of a deployment into what the progress view draws. */
export function reduceDeploy(state: DeployProgress, event: DeployEvent): DeployProgress {
  switch (event.type) {
    case 'step':
      return { ...state, steps: [...state.steps, event.message] };
    case 'pull':
      return {
        ...state,
        images: updateImage(state, event.image, (img) => {
          if (!event.layer) return { ...img, status: event.status };
          const layer: LayerProgress = {
            id: event.layer,
            status: event.status,
            current: event.current,
            total: event.total,
          };
          const known = img.layers.some((l) => l.id === event.layer);
          return {
            ...img,
            layers: known
              ? img.layers.map((l) => (l.id === event.layer ? layer : l))
              : [...img.layers, layer],
          };
        }),
      };
    case 'pulled':
      return {
        ...state,
        images: updateImage(state, event.image, (img) => ({ ...img, status: 'Pulled', done: true })),
      };
    case 'created':
      return { ...state, created: [...state.created, `${event.kind} ${event.name}`] };
    case 'started':
      return { ...state, started: [...state.started, event.container] };
    case 'health':
      return { ...state, health: { ok: event.ok, message: event.message } };
    case 'error':
      return {
        ...state,
        phase: 'failed',
        error: { status: event.status, message: event.message, details: event.details },
        deployment:
          (event.details as { deployment?: Deployment } | undefined)?.deployment ?? state.deployment,
      };
    case 'done':
      return { ...state, phase: state.phase === 'failed' ? 'failed' : 'done', deployment: event.deployment };
  }
}

/** Percent of an image's bytes fetched, over the layers whose size is known; null before any is. */
export function imagePercent(image: ImageProgress): number | null {
  if (image.done) return 100;
  let current = 0;
  let total = 0;
  for (const layer of image.layers) {
    if (layer.total && layer.total > 0) {
      total += layer.total;
      current += Math.min(layer.current ?? 0, layer.total);
    } else if (/complete|already exists/i.test(layer.status)) {
      // A finished layer without sizes counts as done; it adds nothing to the byte totals.
    }
  }
  return total > 0 ? Math.round((current / total) * 100) : null;
}

/** Where the compose file went wrong, when the agent named a line (400 answers). */
export function errorLine(details: unknown): number | null {
  const line = (details as { line?: unknown } | undefined)?.line;
  return typeof line === 'number' ? line : null;
}
