/**
 * Which stored decision (dismissed or created) applies to a suggestion.
 *
 * A routine's id ends in the hour its usual time falls in (`…:0600`). A routine whose mean drifts
 * across the hour between two minings (06:29 one week, 06:31 the next) gets the neighbouring id, and
 * a dismissal keyed by the old one would no longer hold. So a routine suggestion without a decision
 * of its own takes the one of the same entity, state and days an hour either side — unless that
 * neighbour is a routine of its own in the same mining (then both are real and kept apart).
 */
export interface Decision {
  status: 'dismissed' | 'created';
  automationId: string | null;
}

const ROUTINE_SUGGESTION = /^(suggestion:routine:.+:)(\d{2})00$/;

export function decisionFor(
  suggestionId: string,
  decided: ReadonlyMap<string, Decision>,
  currentIds: ReadonlySet<string>,
): Decision | undefined {
  const own = decided.get(suggestionId);
  if (own) return own;
  const m = ROUTINE_SUGGESTION.exec(suggestionId);
  if (!m) return undefined;
  const hour = Number(m[2]);
  for (const delta of [-1, 1]) {
    const neighbour = `${m[1]}${String((hour + delta + 24) % 24).padStart(2, '0')}00`;
    if (currentIds.has(neighbour)) continue;
    const found = decided.get(neighbour);
    if (found) return found;
  }
  return undefined;
}

/** The entities an automation config acts on: its actions' entity_id targets (HA's own and legacy keys). */
export function actedOnEntities(config: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const key of ['target', 'data']) {
      const ids = (record[key] as Record<string, unknown> | undefined)?.entity_id;
      for (const id of Array.isArray(ids) ? ids : [ids]) if (typeof id === 'string') found.add(id);
    }
    if (typeof record.entity_id === 'string' && typeof record.action === 'string')
      found.add(record.entity_id);
  };
  visit(config.actions ?? config.action);
  return [...found];
}
