import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  failTurn,
  formatTokensPerSecond,
  fromSaved,
  history,
  startTurn,
  stopTurn,
} from './chat-state';

const counters = {
  promptTokens: 3,
  completionTokens: 9,
  tokensPerSecond: 40,
  totalDurationMs: 400,
  loadDurationMs: 100,
  doneReason: 'stop',
};

describe('chat state', () => {
  it('fills the answer as the stream arrives and takes the counters from done', () => {
    let entries = startTurn([], 'Hello', 1);
    entries = applyEvent(entries, {
      type: 'meta',
      conversationId: 7,
      providerId: 1,
      providerName: 'ollama',
      model: 'llama3.2:3b',
      fellBackFrom: [],
    });
    entries = applyEvent(entries, { type: 'delta', content: 'Hi ' });
    entries = applyEvent(entries, { type: 'delta', content: 'there' });
    expect(entries[1]).toMatchObject({ content: 'Hi there', status: 'streaming', model: 'llama3.2:3b' });
    expect(history(entries)).toEqual([{ role: 'user', content: 'Hello' }]);
    entries = applyEvent(entries, { type: 'done', messageId: 3, counters });
    expect(entries[1]).toMatchObject({ status: 'complete', tokensPerSecond: 40, completionTokens: 9 });
    expect(history(entries)).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi there' },
    ]);
  });

  it('shows the place in the cloud queue until the answer starts (Free plan)', () => {
    let entries = startTurn([], 'Hello', 1);
    entries = applyEvent(entries, { type: 'queued', position: 2 });
    entries = applyEvent(entries, { type: 'queued', position: 1 });
    expect(entries[1]).toMatchObject({ status: 'streaming', queuePosition: 1 });
    entries = applyEvent(entries, {
      type: 'meta',
      conversationId: 7,
      providerId: 2,
      providerName: 'cloud',
      model: 'gpt-4o-mini',
      fellBackFrom: [],
    });
    expect(entries[1]).toMatchObject({ queuePosition: null, model: 'gpt-4o-mini' });
  });

  it('marks errors, refusals and stops on the answer, not the question', () => {
    const cut = applyEvent(applyEvent(startTurn([], 'x', 1), { type: 'delta', content: 'par' }), {
      type: 'error',
      message: 'closed the stream',
      status: 502,
    });
    expect(cut[1]).toMatchObject({ status: 'error', error: 'closed the stream', content: 'par' });
    expect(failTurn(startTurn([], 'x', 1), 'Upgrade to Pro')[1]).toMatchObject({
      status: 'error',
      error: 'Upgrade to Pro',
    });
    const stopped = stopTurn(applyEvent(startTurn([], 'x', 1), { type: 'delta', content: 'half' }));
    expect(stopped[1]).toMatchObject({ status: 'stopped', content: 'half' });
    expect(history(stopped)).toHaveLength(2);
  });

  it('reads saved messages back, and formats tokens per second', () => {
    const entries = fromSaved([
      {
        id: 1,
        role: 'user',
        content: 'q',
        model: null,
        providerName: null,
        status: 'complete',
        promptTokens: null,
        completionTokens: null,
        tokensPerSecond: null,
        createdAt: '2026-01-01T00:00:00Z',
      },
      {
        id: 2,
        role: 'assistant',
        content: 'a',
        model: 'm',
        providerName: 'ollama',
        status: 'error',
        promptTokens: null,
        completionTokens: 1,
        tokensPerSecond: 12.345,
        createdAt: '2026-01-01T00:00:01Z',
      },
    ]);
    expect(entries.map((e) => e.key)).toEqual(['m1', 'm2']);
    expect(entries[1]).toMatchObject({ status: 'error', error: 'The answer broke off.' });
    expect(formatTokensPerSecond(12.345)).toBe('12.3 tokens/s');
    expect(formatTokensPerSecond(140.6)).toBe('141 tokens/s');
    expect(formatTokensPerSecond(null)).toBeNull();
  });
});
