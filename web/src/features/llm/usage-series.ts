import type { UsageRow } from '@nexus/agent/contract';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every day (YYYY-MM-DD, UTC) from `since` for `days` days. */
export function dayRange(since: string, days: number): string[] {
  const start = Date.parse(`${since}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/** Messages per day and model, every day present (0 where nothing was asked), for a stacked bar chart. */
export function messagesByDay(rows: UsageRow[], since: string, days: number) {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const points = dayRange(since, days).map((day) => {
    const point: Record<string, number | string> = { day };
    for (const m of models) point[m] = 0;
    return point;
  });
  const byDay = new Map(points.map((p) => [p.day as string, p]));
  for (const r of rows) {
    const p = byDay.get(r.day);
    if (p) p[r.model] = (p[r.model] as number) + r.messages;
  }
  return { models, points };
}

export interface Total {
  key: string;
  label: string;
  messages: number;
  promptTokens: number;
  completionTokens: number;
}

function totals(rows: UsageRow[], keyOf: (r: UsageRow) => string, labelOf: (r: UsageRow) => string): Total[] {
  const map = new Map<string, Total>();
  for (const r of rows) {
    const key = keyOf(r);
    const t = map.get(key) ?? { key, label: labelOf(r), messages: 0, promptTokens: 0, completionTokens: 0 };
    t.messages += r.messages;
    t.promptTokens += r.promptTokens;
    t.completionTokens += r.completionTokens;
    map.set(key, t);
  }
  return [...map.values()].sort((a, b) => b.messages - a.messages || a.label.localeCompare(b.label));
}

export const byUser = (rows: UsageRow[]) =>
  totals(
    rows,
    (r) => String(r.userId),
    (r) => r.userName ?? `Deleted account #${r.userId}`,
  );
export const byModel = (rows: UsageRow[]) =>
  totals(
    rows,
    (r) => `${r.providerName}/${r.model}`,
    (r) => `${r.model} (${r.providerName})`,
  );

/** Which node's Ollama answered (issue 24); null: another provider, or a row from before nodes were recorded. */
export const byNode = (rows: UsageRow[]) =>
  totals(
    rows,
    (r) => r.node ?? '',
    (r) => r.node ?? 'Other providers',
  );

export function grandTotal(rows: UsageRow[]) {
  return rows.reduce(
    (t, r) => ({
      messages: t.messages + r.messages,
      tokens: t.tokens + r.promptTokens + r.completionTokens,
    }),
    { messages: 0, tokens: 0 },
  );
}
