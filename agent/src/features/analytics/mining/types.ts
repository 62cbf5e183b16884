import type {
  Anomaly,
  Heatmap,
  Prediction,
  Routine,
  Sequence,
  Suggestion,
} from '../../../contract/analytics.js';
import type { EventLog } from '../event-log.js';

/**
 * The miners' interface (issue 16): pure functions over an EventLog, deterministic for the same
 * input, explainable (every number is a count or a statistic a person can check). The analytics
 * service calls them; nothing here reads the database or Home Assistant.
 */
export interface MiningOptions {
  /** "Now", Unix ms: today's anomalies and the next hour's predictions are relative to it. */
  now: number;
  /** Home Assistant's IANA time zone; times of day and weekdays are in it. */
  timeZone: string;
  /** Friendly names by entity id (from HA's entity cache); the entity id when absent. */
  nameOf?: (entityId: string) => string;
}

export interface MiningResult {
  routines: Routine[];
  sequences: Sequence[];
  /** Anomalies as of `now`: routines missed today, devices on at an hour they never are. */
  anomalies: Anomaly[];
  /** What is likely in the hour after `now`. */
  predictions: Prediction[];
  /** One per strong routine or sequence, status 'open' (the service applies stored decisions). */
  suggestions: Suggestion[];
  /** Whole days of history the log covers. */
  days: number;
}

export type Mine = (log: EventLog, options: MiningOptions) => MiningResult;
export type HeatmapOf = (
  log: EventLog,
  entityId: string,
  options: { timeZone: string; state?: string; nameOf?: (entityId: string) => string },
) => Heatmap;
