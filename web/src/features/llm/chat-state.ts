import type { ChatMessage, ChatMessageInput, ChatStreamEvent } from '@nexus/agent/contract';

/** One bubble of the chat as the screen draws it. */
export interface ChatEntry {
  key: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  status: 'streaming' | 'complete' | 'stopped' | 'error';
  model: string | null;
  providerName: string | null;
  tokensPerSecond: number | null;
  completionTokens: number | null;
  error: string | null;
  /** Providers the router passed over for this answer, and why. */
  fellBackFrom: { providerName: string; model: string; reason: string }[];
  /** The answer waits for the hub's one cloud request at a time (Free plan): its place, 1 = next. */
  queuePosition?: number | null;
}

const blank = (key: string, role: ChatEntry['role'], content: string): ChatEntry => ({
  key,
  role,
  content,
  status: 'complete',
  model: null,
  providerName: null,
  tokensPerSecond: null,
  completionTokens: null,
  error: null,
  fellBackFrom: [],
});

/** A saved conversation's messages as bubbles. */
export function fromSaved(messages: ChatMessage[]): ChatEntry[] {
  return messages.map((m) => ({
    ...blank(`m${m.id}`, m.role, m.content),
    status: m.status,
    model: m.model,
    providerName: m.providerName,
    tokensPerSecond: m.tokensPerSecond,
    completionTokens: m.completionTokens,
    error: m.status === 'error' ? 'The answer broke off.' : null,
  }));
}

/** The person's message and an empty answer that the stream fills in. */
export function startTurn(entries: ChatEntry[], text: string, turn: number): ChatEntry[] {
  const answer = { ...blank(`a${turn}`, 'assistant', ''), status: 'streaming' as const };
  return [...entries, blank(`u${turn}`, 'user', text), answer];
}

function updateLast(entries: ChatEntry[], change: (e: ChatEntry) => ChatEntry): ChatEntry[] {
  const i = entries.length - 1;
  const last = entries[i];
  if (!last || last.role !== 'assistant') return entries;
  return [...entries.slice(0, i), change(last)];
}

/** Folds one event of the answer's stream into the bubbles. */
export function applyEvent(entries: ChatEntry[], event: ChatStreamEvent): ChatEntry[] {
  switch (event.type) {
    case 'queued':
      return updateLast(entries, (e) => ({ ...e, queuePosition: event.position }));
    case 'meta':
      return updateLast(entries, (e) => ({
        ...e,
        queuePosition: null,
        model: event.model,
        providerName: event.providerName,
        fellBackFrom: event.fellBackFrom,
      }));
    case 'delta':
      return updateLast(entries, (e) => ({ ...e, content: e.content + event.content }));
    case 'done':
      return updateLast(entries, (e) => ({
        ...e,
        status: 'complete',
        tokensPerSecond: event.counters.tokensPerSecond,
        completionTokens: event.counters.completionTokens,
      }));
    case 'error':
      return updateLast(entries, (e) => ({ ...e, status: 'error', error: event.message }));
  }
}

/** The answer was refused before it began (e.g. 429): the empty answer shows why. */
export function failTurn(entries: ChatEntry[], message: string): ChatEntry[] {
  return updateLast(entries, (e) => ({ ...e, status: 'error', error: message }));
}

/** The person pressed stop. */
export function stopTurn(entries: ChatEntry[]): ChatEntry[] {
  return updateLast(entries, (e) => (e.status === 'streaming' ? { ...e, status: 'stopped' } : e));
}

/** What is sent to the model: every finished bubble with text, oldest first. */
export function history(entries: ChatEntry[]): ChatMessageInput[] {
  return entries
    .filter((e) => e.content.length > 0 && e.status !== 'streaming')
    .map((e) => ({ role: e.role, content: e.content }));
}

export function formatTokensPerSecond(n: number | null): string | null {
  return n === null ? null : `${n >= 100 ? Math.round(n) : n.toFixed(1)} tokens/s`;
}
