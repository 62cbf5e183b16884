import { describe, expect, it } from 'vitest';
import type { UsageRow } from '@nexus/agent/contract';
import { byModel, byNode, byUser, dayRange, grandTotal, messagesByDay } from './usage-series';

const row = (day: string, userId: number, model: string, messages: number): UsageRow => ({
  day,
  userId,
  userName: userId === 1 ? 'Olive' : null,
  model,
  providerName: 'ollama',
  node: null,
  messages,
  promptTokens: messages * 10,
  completionTokens: messages * 20,
});

describe('usage series', () => {
  it('fills every day of the window, across a month end', () => {
    expect(dayRange('2026-01-30', 4)).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
  });

  it('stacks messages per day by model with zeros where nothing was asked', () => {
    const rows = [
      row('2026-01-30', 1, 'llama', 2),
      row('2026-01-30', 2, 'llama', 1),
      row('2026-02-01', 1, 'qwen', 4),
    ];
    const { models, points } = messagesByDay(rows, '2026-01-30', 3);
    expect(models).toEqual(['llama', 'qwen']);
    expect(points).toEqual([
      { day: '2026-01-30', llama: 3, qwen: 0 },
      { day: '2026-01-31', llama: 0, qwen: 0 },
      { day: '2026-02-01', llama: 0, qwen: 4 },
    ]);
  });

  it('totals by user and by model, busiest first', () => {
    const rows = [
      row('2026-01-30', 1, 'llama', 2),
      row('2026-01-31', 2, 'llama', 5),
      row('2026-01-31', 1, 'qwen', 1),
    ];
    expect(byUser(rows).map((t) => [t.label, t.messages])).toEqual([
      ['Deleted account #2', 5],
      ['Olive', 3],
    ]);
    expect(byModel(rows)[0]).toMatchObject({
      label: 'llama (ollama)',
      messages: 7,
      promptTokens: 70,
      completionTokens: 140,
    });
    expect(grandTotal(rows)).toEqual({ messages: 8, tokens: 240 });
  });

  it('totals by the node that answered; rows without one are other providers', () => {
    const rows = [
      { ...row('2026-01-30', 1, 'llama', 2), node: 'orin-agx' },
      { ...row('2026-01-30', 1, 'llama', 3), node: 'orin-nano' },
      { ...row('2026-01-31', 2, 'llama', 4), node: 'orin-agx' },
      row('2026-01-31', 2, 'gpt', 1),
    ];
    expect(byNode(rows).map((t) => [t.label, t.messages])).toEqual([
      ['orin-agx', 6],
      ['orin-nano', 3],
      ['Other providers', 1],
    ]);
  });
});
