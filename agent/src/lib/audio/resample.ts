/** The rate wake-word engines and Wyoming speech-to-text expect. */
export const TARGET_SAMPLE_RATE = 16_000;

/** Zero crossings of the sinc kept on each side: a sharper low-pass than speech needs, cheap enough. */
const SINC_ZERO_CROSSINGS = 8;
/** The low-pass sits a little under the new Nyquist so the window's roll-off does not alias. */
const CUTOFF_FRACTION = 0.95;
/** Past this many distinct phases (unusual rate pairs) each kernel is computed on the fly. */
const MAX_PRECOMPUTED_PHASES = 4096;

/**
 * Band-limited resampling with a Hann-windowed sinc: the low-pass that downsampling needs is built
 * into the kernel. Rates whose ratio is a small fraction (48 k→16 k, 44.1 k→16 k) reuse precomputed
 * kernels per phase, which keeps a 2 s take well under a millisecond per second of audio.
 */
export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return input.slice();
  const divisor = gcd(fromRate, toRate);
  const up = toRate / divisor;
  const down = fromRate / divisor;
  const outLength = Math.floor((input.length * up) / down);
  const cutoff = Math.min(1, toRate / fromRate) * CUTOFF_FRACTION;
  const halfWidth = Math.ceil(SINC_ZERO_CROSSINGS / cutoff);
  const taps = 2 * halfWidth;
  const kernelFor = (fraction: number, into: Float64Array) => {
    // Tap k sits at input index floor(position) - halfWidth + 1 + k; its distance from the position:
    for (let k = 0; k < taps; k++) {
      const distance = k - halfWidth + 1 - fraction;
      into[k] = cutoff * sinc(cutoff * distance) * hann(distance / (halfWidth + 1));
    }
  };
  const precomputed = up <= MAX_PRECOMPUTED_PHASES;
  const kernels = precomputed ? new Float64Array(up * taps) : new Float64Array(0);
  if (precomputed) {
    const scratch = new Float64Array(taps);
    for (let phase = 0; phase < up; phase++) {
      kernelFor(phase / up, scratch);
      kernels.set(scratch, phase * taps);
    }
  }
  const onTheFly = new Float64Array(taps);
  const out = new Float32Array(outLength);
  const last = input.length - 1;
  for (let i = 0; i < outLength; i++) {
    const numerator = i * down;
    const base = Math.floor(numerator / up);
    const phase = numerator - base * up;
    let kernel: Float64Array;
    let kernelOffset = 0;
    if (precomputed) {
      kernel = kernels;
      kernelOffset = phase * taps;
    } else {
      kernelFor(phase / up, onTheFly);
      kernel = onTheFly;
    }
    const start = base - halfWidth + 1;
    let sum = 0;
    if (start >= 0 && start + taps - 1 <= last) {
      for (let k = 0; k < taps; k++) sum += input[start + k]! * kernel[kernelOffset + k]!;
    } else {
      for (let k = 0; k < taps; k++) {
        const index = start + k;
        if (index >= 0 && index <= last) sum += input[index]! * kernel[kernelOffset + k]!;
      }
    }
    out[i] = sum;
  }
  return out;
}

/** A decoded file (already mixed down to mono) brought to 16 kHz. */
export function resampleTo16kMono(audio: { samples: Float32Array; sampleRate: number }): Float32Array {
  return resample(audio.samples, audio.sampleRate, TARGET_SAMPLE_RATE);
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const arg = Math.PI * x;
  return Math.sin(arg) / arg;
}

function hann(t: number): number {
  return Math.abs(t) >= 1 ? 0 : 0.5 * (1 + Math.cos(Math.PI * t));
}

function gcd(a: number, b: number): number {
  let x = Math.round(a);
  let y = Math.round(b);
  while (y) [x, y] = [y, x % y];
  return x;
}
