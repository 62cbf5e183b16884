import { describe, expect, it } from 'vitest';
import { mbitPerSecond, parseToolEvent } from './network';
import { signalWords } from './network';

describe('network tool events', () => {
  it('reads line, done and error events; ignores anything else', () => {
    expect(parseToolEvent('line', '{"text":"64 bytes from 127.0.0.1"}')).toEqual({
      type: 'line',
      text: '64 bytes from 127.0.0.1',
    });
    expect(parseToolEvent('done', '{"ok":true,"summary":"2/2 replies"}')).toEqual({
      type: 'done',
      done: { ok: true, summary: '2/2 replies' },
    });
    expect(parseToolEvent('error', '{"message":"Stopped"}')).toEqual({ type: 'error', message: 'Stopped' });
    expect(parseToolEvent('done', '{"summary":1}')).toBeNull();
    expect(parseToolEvent('line', 'not json')).toBeNull();
  });

  it('turns bytes and milliseconds into Mbit/s', () => {
    expect(mbitPerSecond(20 * 1024 * 1024, 1000)).toBe(167.8);
    expect(mbitPerSecond(1, 0)).toBe(0);
  });

  it('says how good a Wi-Fi signal is', () => {
    expect(signalWords(-50)).toBe('Excellent');
    expect(signalWords(-60)).toBe('Good');
    expect(signalWords(-70)).toBe('Fair');
    expect(signalWords(-85)).toBe('Weak');
    expect(signalWords(null)).toBe('Unknown');
  });
});
