/** Levels below this read as this, the floor of 16-bit audio. */
export const SILENCE_DBFS = -100;
/** A sample this close to full scale counts as clipped (the agent uses the same level). */
export const CLIPPING_LEVEL = 0.99;

export interface BlockLevels {
  rmsDbfs: number;
  peakDbfs: number;
  clipped: number;
}

export function toDbfs(amplitude: number): number {
  return amplitude > 0 ? Math.max(SILENCE_DBFS, 20 * Math.log10(amplitude)) : SILENCE_DBFS;
}

/** RMS, peak and clipped-sample count of one block of samples in [-1, 1]. */
export function blockLevels(samples: Float32Array): BlockLevels {
  let sum = 0;
  let peak = 0;
  let clipped = 0;
  for (let i = 0; i < samples.length; i++) {
    const magnitude = Math.abs(samples[i]!);
    sum += magnitude * magnitude;
    if (magnitude > peak) peak = magnitude;
    if (magnitude >= CLIPPING_LEVEL) clipped++;
  }
  return {
    rmsDbfs: toDbfs(Math.sqrt(sum / Math.max(1, samples.length))),
    peakDbfs: toDbfs(peak),
    clipped,
  };
}

/**
 * The room's level while the microphone is open: a low percentile of the recent block levels,
 * so speaking does not raise it and a quiet moment is enough to find it.
 */
export class NoiseFloorTracker {
  private levels: number[] = [];

  constructor(
    private readonly capacity = 300,
    private readonly percentile = 10,
  ) {}

  add(rmsDbfs: number): void {
    this.levels.push(rmsDbfs);
    if (this.levels.length > this.capacity) this.levels.shift();
  }

  get dbfs(): number | null {
    if (this.levels.length < 10) return null;
    const sorted = [...this.levels].sort((a, b) => a - b);
    return sorted[Math.floor(((sorted.length - 1) * this.percentile) / 100)]!;
  }

  reset(): void {
    this.levels = [];
  }
}
