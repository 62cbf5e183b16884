import { describe, expect, it } from 'vitest';
import { createEndpointer } from './endpointer.js';

const FORMAT = { rate: 16_000, width: 2, channels: 1 };

/** ms of a 16-bit mono signal: a 300 Hz tone at `dbfs`, or white noise at that RMS. */
function pcm(ms: number, dbfs: number, kind: 'tone' | 'noise' = 'tone'): Buffer {
  const n = (FORMAT.rate * ms) / 1000;
  const out = Buffer.alloc(n * 2);
  const amplitude = 32767 * 10 ** (dbfs / 20);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const v =
      kind === 'tone'
        ? Math.SQRT2 * amplitude * Math.sin((2 * Math.PI * 300 * i) / FORMAT.rate)
        : amplitude * Math.sqrt(3) * ((seed / 0x7fffffff) * 2 - 1);
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v))), i * 2);
  }
  return out;
}

/** Feeds the audio in 1024-sample chunks; returns why and after how many ms of audio it ended. */
function feed(endpointer: ReturnType<typeof createEndpointer>, audio: Buffer) {
  for (let at = 0; at < audio.length; at += 2048) {
    const reason = endpointer.push(audio.subarray(at, at + 2048));
    if (reason) return { reason, atMs: endpointer.durationMs };
  }
  return null;
}

describe('the streaming endpointer', () => {
  it('ends a command after speech and 700 ms of room noise, not before', () => {
    const e = createEndpointer(FORMAT);
    const audio = Buffer.concat([pcm(300, -60, 'noise'), pcm(1200, -20), pcm(3000, -60, 'noise')]);
    const ended = feed(e, audio);
    expect(ended?.reason).toBe('silence');
    expect(ended!.atMs).toBeGreaterThanOrEqual(1500 + 700);
    expect(ended!.atMs).toBeLessThan(1500 + 700 + 100);
  });

  it('a pause between words shorter than the silence does not end it', () => {
    const e = createEndpointer(FORMAT);
    const audio = Buffer.concat([pcm(600, -20), pcm(400, -90), pcm(600, -20), pcm(2000, -90)]);
    expect(feed(e, audio)).toMatchObject({ reason: 'silence' });
    expect(e.speechMs).toBeGreaterThan(1100);
  });

  it('gives up without speech, and cuts endless speech at the maximum length', () => {
    expect(feed(createEndpointer(FORMAT, { noSpeechMs: 2000 }), pcm(5000, -60, 'noise'))).toEqual({
      reason: 'no-speech',
      atMs: 2000,
    });
    expect(feed(createEndpointer(FORMAT, { maxMs: 3000 }), pcm(5000, -20))).toEqual({
      reason: 'max-length',
      atMs: 3000,
    });
  });

  it('a constant loud hum becomes the room: the command still ends within seconds', () => {
    const ended = feed(createEndpointer(FORMAT), pcm(15_000, -10, 'noise'));
    expect(ended?.reason).toBe('silence');
    expect(ended!.atMs).toBeLessThan(6000);
  });
});
