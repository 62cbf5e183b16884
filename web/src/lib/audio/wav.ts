/** The rate wake-word engines and speech-to-text expect; every take is uploaded at it. */
export const TARGET_SAMPLE_RATE = 16_000;

/** Mono samples in [-1, 1] as a 16-bit PCM WAV file (RIFF header + little-endian samples). */
export function encodeWav16(samples: Float32Array, sampleRate = TARGET_SAMPLE_RATE): ArrayBuffer {
  const buffer = new ArrayBuffer(44 + samples.length * 2);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(44 + i * 2, value < 0 ? Math.round(value * 32768) : Math.round(value * 32767), true);
  }
  return buffer;
}

/**
 * Brings a take to 16 kHz with the browser's own resampler (an OfflineAudioContext renders the
 * buffer at the new rate, band-limited). Browsers only.
 */
export async function resampleTo16k(samples: Float32Array, sampleRate: number): Promise<Float32Array> {
  if (sampleRate === TARGET_SAMPLE_RATE) return samples;
  const length = Math.max(1, Math.round((samples.length * TARGET_SAMPLE_RATE) / sampleRate));
  const context = new OfflineAudioContext(1, length, TARGET_SAMPLE_RATE);
  const source = context.createBufferSource();
  const buffer = context.createBuffer(1, samples.length, sampleRate);
  buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
  source.buffer = buffer;
  source.connect(context.destination);
  source.start();
  const rendered = await context.startRendering();
  return rendered.getChannelData(0).slice();
}
