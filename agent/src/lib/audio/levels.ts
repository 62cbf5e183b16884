/** Levels below this are reported as this: the floor of what 16-bit audio can express, and then some. */
export const SILENCE_DBFS = -100;
/** A sample this close to full scale (−0.09 dBFS) counts as clipped: converters flatten just under 1.0. */
export const CLIPPING_LEVEL = 0.99;

export interface Levels {
  rmsDbfs: number;
  peakDbfs: number;
  /** Share of samples at or near full scale, in percent. */
  clippingPercent: number;
}

/** RMS, peak and clipping of samples in [-1, 1]; measure before resampling, which smooths peaks. */
export function measureLevels(samples: Float32Array): Levels {
  let sumSquares = 0;
  let peak = 0;
  let clipped = 0;
  for (let i = 0; i < samples.length; i++) {
    const magnitude = Math.abs(samples[i]!);
    sumSquares += magnitude * magnitude;
    if (magnitude > peak) peak = magnitude;
    if (magnitude >= CLIPPING_LEVEL) clipped++;
  }
  const count = Math.max(1, samples.length);
  return {
    rmsDbfs: powerToDbfs(sumSquares / count),
    peakDbfs: amplitudeToDbfs(peak),
    clippingPercent: (clipped / count) * 100,
  };
}

export function powerToDbfs(power: number): number {
  return power > 0 ? Math.max(SILENCE_DBFS, 10 * Math.log10(power)) : SILENCE_DBFS;
}

export function amplitudeToDbfs(amplitude: number): number {
  return amplitude > 0 ? Math.max(SILENCE_DBFS, 20 * Math.log10(amplitude)) : SILENCE_DBFS;
}
