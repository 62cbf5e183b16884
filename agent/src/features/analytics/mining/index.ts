import { mineAnomalies } from './anomalies.js';
import { minePredictions } from './predictions.js';
import { prepare } from './prepared.js';
import { mineRoutines } from './routines.js';
import { mineSequences } from './sequences.js';
import { buildSuggestions } from './suggestions.js';
import type { Mine } from './types.js';

/**
 * Mining (issue 16): pure and deterministic over an EventLog; the analytics service runs it in a
 * worker thread. See each miner's file for what it computes and why.
 */
export const mine: Mine = (log, options) => {
  const p = prepare(log, options);
  const routines = mineRoutines(p);
  const sequences = mineSequences(p);
  const anomalies = mineAnomalies(p, routines);
  const predictions = minePredictions(p, routines, sequences);
  const suggestions = buildSuggestions(routines, sequences);
  return { routines, sequences, anomalies, predictions, suggestions, days: p.observed.all };
};

export { heatmapOf } from './heatmap.js';
export type { HeatmapOf, Mine, MiningOptions, MiningResult } from './types.js';
