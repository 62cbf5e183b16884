import type * as Yaml from 'yaml';
import { lazyRequire } from '../../../lib/lazy-require.js';
import type { Routine, Sequence, Suggestion } from '../../../contract/analytics.js';
import type { AutomationConfig } from '../../../contract/ha-automations.js';
import { changeInWords, daysInWords, isStrong } from './anomalies.js';
import { domainOf } from './prepared.js';

/** yaml loads when a suggestion is first written out, not at start. */
const yaml = lazyRequire<typeof Yaml>('yaml');

/**
 * Suggestions (issue 16): each strong routine or sequence ending in a state a service can bring
 * about becomes a Home Assistant automation config (HA's automation schema: `triggers`,
 * `conditions`, `actions`, with the 2024.10 key names), shown as YAML.
 *
 * Unlocking is never suggested: a door that unlocks itself on a schedule or after another event is a
 * security hole, however regular the habit.
 */

export const STRONG_SEQUENCE = { confidence: 0.7, lift: 2, count: 5 };

interface Action {
  action: string;
  data?: Record<string, string>;
}

const ON_OFF = (domain: string): Record<string, Action> => ({
  on: { action: `${domain}.turn_on` },
  off: { action: `${domain}.turn_off` },
});
const CLIMATE_MODES = ['heat', 'cool', 'heat_cool', 'auto', 'dry', 'fan_only'];

/** The service that brings an entity of this domain to this state; null when none does (or should). */
export function actionFor(entityId: string, state: string): Action | null {
  const domain = domainOf(entityId);
  const table: Record<string, Record<string, Action>> = {
    light: ON_OFF('light'),
    switch: ON_OFF('switch'),
    fan: ON_OFF('fan'),
    input_boolean: ON_OFF('input_boolean'),
    humidifier: ON_OFF('humidifier'),
    cover: { open: { action: 'cover.open_cover' }, closed: { action: 'cover.close_cover' } },
    valve: { open: { action: 'valve.open_valve' }, closed: { action: 'valve.close_valve' } },
    lock: { locked: { action: 'lock.lock' } },
    media_player: {
      playing: { action: 'media_player.media_play' },
      paused: { action: 'media_player.media_pause' },
      on: { action: 'media_player.turn_on' },
      off: { action: 'media_player.turn_off' },
    },
    vacuum: { cleaning: { action: 'vacuum.start' }, docked: { action: 'vacuum.return_to_base' } },
    climate: {
      off: { action: 'climate.turn_off' },
      ...Object.fromEntries(
        CLIMATE_MODES.map((mode) => [mode, { action: 'climate.set_hvac_mode', data: { hvac_mode: mode } }]),
      ),
    },
  };
  return table[domain]?.[state] ?? null;
}

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'];
const WEEKEND = ['sat', 'sun'];

function actionsFor(entityId: string, action: Action): Record<string, unknown>[] {
  return [
    { action: action.action, target: { entity_id: entityId }, ...(action.data ? { data: action.data } : {}) },
  ];
}

/**
 * YAML as Home Assistant reads it. HA's loader is YAML 1.1, where a bare `on` is true and a bare
 * 07:05:00 a base-60 number: writing YAML 1.1 quotes both, so the YAML pasted into HA means the same.
 */
export function automationYaml(config: AutomationConfig): string {
  return yaml().stringify(config, { lineWidth: 0, version: '1.1' });
}

export function routineSuggestion(routine: Routine): Suggestion | null {
  const action = actionFor(routine.entityId, routine.state);
  if (!action || !isStrong(routine)) return null;
  const change = changeInWords(routine.state);
  const title = `${routine.name} ${change} at ${routine.meanTime} ${daysInWords(routine.days)}`;
  const description =
    `Suggested by Nexus from the home's history: ${routine.name} ${change} around ${routine.meanTime} ` +
    `${daysInWords(routine.days)} (${routine.daysSeen} of ${routine.daysObserved} days, ±${Math.round(routine.spreadMinutes)} min).`;
  const automation: AutomationConfig = {
    alias: title.slice(0, 200),
    description,
    mode: 'single',
    triggers: [{ trigger: 'time', at: `${routine.meanTime}:00` }],
    conditions:
      routine.days === 'all'
        ? []
        : [{ condition: 'time', weekday: routine.days === 'weekday' ? WEEKDAYS : WEEKEND }],
    actions: actionsFor(routine.entityId, action),
  };
  return {
    id: `suggestion:${routine.id}`,
    patternKind: 'routine',
    patternId: routine.id,
    title,
    description,
    automation,
    yaml: automationYaml(automation),
    status: 'open',
    automationId: null,
  };
}

export function sequenceSuggestion(sequence: Sequence): Suggestion | null {
  const action = actionFor(sequence.to.entityId, sequence.to.state);
  if (
    !action ||
    sequence.confidence < STRONG_SEQUENCE.confidence ||
    sequence.lift < STRONG_SEQUENCE.lift ||
    sequence.count < STRONG_SEQUENCE.count
  ) {
    return null;
  }
  const { from, to } = sequence;
  const title = `When ${from.name} ${changeInWords(from.state)}, ${to.name} ${changeInWords(to.state)}`;
  const description =
    `Suggested by Nexus from the home's history: ${to.name} ${changeInWords(to.state)} within ` +
    `${Math.round(sequence.windowSeconds / 60)} min after ${from.name} ${changeInWords(from.state)} ` +
    `${Math.round(sequence.confidence * 100)} % of the time (${sequence.count} times, usually after ${sequence.medianDelaySeconds} s; ` +
    `${sequence.lift.toFixed(1)}× likelier than at random).`;
  const automation: AutomationConfig = {
    alias: title.slice(0, 200),
    description,
    mode: 'single',
    triggers: [{ trigger: 'state', entity_id: from.entityId, to: from.state }],
    conditions: [],
    actions: actionsFor(to.entityId, action),
  };
  return {
    id: `suggestion:${sequence.id}`,
    patternKind: 'sequence',
    patternId: sequence.id,
    title,
    description,
    automation,
    yaml: automationYaml(automation),
    status: 'open',
    automationId: null,
  };
}

export function buildSuggestions(routines: readonly Routine[], sequences: readonly Sequence[]): Suggestion[] {
  const suggestions: Suggestion[] = [];
  for (const routine of routines) {
    const s = routineSuggestion(routine);
    if (s) suggestions.push(s);
  }
  for (const sequence of sequences) {
    const s = sequenceSuggestion(sequence);
    if (s) suggestions.push(s);
  }
  return suggestions;
}
