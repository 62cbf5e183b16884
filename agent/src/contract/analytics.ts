import { z } from 'zod';
import { automationConfigSchema } from './ha-automations.js';

/**
 * Behavioural analytics (issue 16): the household's routines, sequences, anomalies and predictions,
 * mined on the hub from Home Assistant's state history kept in SQLite. Nothing leaves the hub.
 *
 * Times of day are in Home Assistant's time zone (its `time_zone` config), as the household lives
 * by it; ISO timestamps are UTC.
 */

const entityIdSchema = z
  .string()
  .min(3)
  .max(255)
  .regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, 'Not an entity id (domain.object_id)');

/** "HH:MM", 24-hour clock. */
const timeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const dayKindSchema = z.enum(['weekday', 'weekend', 'all']);
export type DayKind = z.infer<typeof dayKindSchema>;

/** An entity reaching a state at a usual time of day. */
export const routineSchema = z.object({
  /** Stable across runs for the same entity, state and days (the suggestion's id builds on it). */
  id: z.string(),
  entityId: z.string(),
  /** The entity's friendly name when Home Assistant knows it, else the entity id. */
  name: z.string(),
  state: z.string(),
  days: dayKindSchema,
  /** Circular mean of the times of day, "HH:MM". */
  meanTime: timeOfDaySchema,
  /** Circular standard deviation, minutes. */
  spreadMinutes: z.number().nonnegative(),
  /** Days seen / days observed (of the kind in `days`), 0–1. */
  support: z.number().min(0).max(1),
  /** How sure: support weighed by how tight the spread is and how many days were observed, 0–1. */
  confidence: z.number().min(0).max(1),
  daysSeen: z.number().int().nonnegative(),
  daysObserved: z.number().int().nonnegative(),
});
export type Routine = z.infer<typeof routineSchema>;

const entityStateSchema = z.object({ entityId: z.string(), name: z.string(), state: z.string() });

/**
 * A then B within a window. `kind: 'presence'` when A is a `person.*` (or `device_tracker.*`)
 * arriving home: a presence-conditioned pattern.
 */
export const sequenceSchema = z.object({
  id: z.string(),
  kind: z.enum(['sequence', 'presence']),
  from: entityStateSchema,
  to: entityStateSchema,
  /** The window B must follow A within, seconds. */
  windowSeconds: z.number().int().positive(),
  /** Median delay from A to B when B follows, seconds. */
  medianDelaySeconds: z.number().nonnegative(),
  /** Times A happened and B followed within the window. */
  count: z.number().int().nonnegative(),
  /** Share of all days (or windows) with A followed by B, 0–1. */
  support: z.number().min(0).max(1),
  /** P(B within window | A), 0–1. */
  confidence: z.number().min(0).max(1),
  /** confidence / P(B within any window of that length); > 1 means A makes B likelier. */
  lift: z.number().nonnegative(),
});
export type Sequence = z.infer<typeof sequenceSchema>;

export const anomalySchema = z.object({
  id: z.string(),
  /** A strong routine that has not happened today by well after its usual time; a device on at an hour it never is. */
  kind: z.enum(['missed_routine', 'unusual_hour']),
  entityId: z.string(),
  name: z.string(),
  state: z.string(),
  /** When it was noticed (unusual hour: the event's time; missed routine: when it became overdue). ISO. */
  at: z.string(),
  /** The routine behind a missed one. */
  routineId: z.string().nullable(),
  /** In words, e.g. "Hallway light usually turns on around 07:05 on weekdays; not yet today". */
  message: z.string(),
  severity: z.enum(['info', 'warning']),
});
export type Anomaly = z.infer<typeof anomalySchema>;

export const predictionSchema = z.object({
  entityId: z.string(),
  name: z.string(),
  state: z.string(),
  /** When it is expected, ISO (within the next hour). */
  expectedAt: z.string(),
  confidence: z.number().min(0).max(1),
  /** The pattern behind it. */
  basis: z.object({ kind: z.enum(['routine', 'sequence']), id: z.string(), text: z.string() }),
});
export type Prediction = z.infer<typeof predictionSchema>;

export const suggestionSchema = z.object({
  /** `<pattern id>` prefixed by its kind: stable, so a dismissal stays dismissed. */
  id: z.string(),
  patternKind: z.enum(['routine', 'sequence']),
  patternId: z.string(),
  title: z.string(),
  description: z.string(),
  /** The Home Assistant automation config it would create (triggers, conditions, actions). */
  automation: automationConfigSchema,
  /** The same config as YAML, as HA's editor shows it. */
  yaml: z.string(),
  status: z.enum(['open', 'dismissed', 'created']),
  /** The HA automation's config id once created. */
  automationId: z.string().nullable(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/** Meta every analytics answer carries: how much history it stands on. */
export const analyticsBasisSchema = z.object({
  /** When the patterns were mined, ISO; null before the first run. */
  minedAt: z.string().nullable(),
  /** Days of history the mining covered. */
  days: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
  /** Home Assistant's time zone that times of day are in. */
  timeZone: z.string(),
});

export const routineListSchema = analyticsBasisSchema.extend({ routines: z.array(routineSchema) });
export const sequenceListSchema = analyticsBasisSchema.extend({ sequences: z.array(sequenceSchema) });
export const anomalyListSchema = analyticsBasisSchema.extend({ anomalies: z.array(anomalySchema) });
export const predictionListSchema = analyticsBasisSchema.extend({
  /** The hour predicted, ISO. */
  from: z.string(),
  to: z.string(),
  predictions: z.array(predictionSchema),
});
export const suggestionListSchema = analyticsBasisSchema.extend({ suggestions: z.array(suggestionSchema) });
export type RoutineList = z.infer<typeof routineListSchema>;
export type SequenceList = z.infer<typeof sequenceListSchema>;
export type AnomalyList = z.infer<typeof anomalyListSchema>;
export type PredictionList = z.infer<typeof predictionListSchema>;
export type SuggestionList = z.infer<typeof suggestionListSchema>;

/** GET /api/analytics/heatmap?entity= : hour × weekday counts of the entity's state changes. */
export const heatmapQuerySchema = z.object({
  entity: entityIdSchema,
  /** Count only changes to this state (e.g. "on"); all changes when absent. */
  state: z.string().min(1).max(255).optional(),
});
export const heatmapSchema = z.object({
  entityId: z.string(),
  name: z.string(),
  state: z.string().nullable(),
  /** counts[weekday][hour]; weekday 0 = Monday … 6 = Sunday, hours in HA's time zone. */
  counts: z.array(z.array(z.number().int().nonnegative()).length(24)).length(7),
  total: z.number().int().nonnegative(),
  timeZone: z.string(),
});
export type Heatmap = z.infer<typeof heatmapSchema>;

/** GET /api/analytics/timeline?date=YYYY-MM-DD : one day's state changes (HA's time zone). */
export const timelineQuerySchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD'),
  entity: entityIdSchema.optional(),
});
export const timelineSchema = z.object({
  date: z.string(),
  timeZone: z.string(),
  entities: z.array(
    z.object({
      entityId: z.string(),
      name: z.string(),
      /** The day's changes, oldest first (the first is the state in effect at midnight when known). */
      changes: z.array(z.object({ at: z.string(), state: z.string() })),
    }),
  ),
});
export type Timeline = z.infer<typeof timelineSchema>;

/** GET /api/analytics/status: the event store. */
export const analyticsStatusSchema = z.object({
  events: z.number().int().nonnegative(),
  entities: z.number().int().nonnegative(),
  /** Oldest and newest stored change, ISO; null when empty. */
  oldest: z.string().nullable(),
  newest: z.string().nullable(),
  /** Following HA's state_changed live right now. */
  live: z.boolean(),
  /** The last backfill from HA's history. */
  lastBackfill: z
    .object({ at: z.string(), from: z.string(), to: z.string(), events: z.number().int().nonnegative() })
    .nullable(),
  /** A backfill running now: entities done of all, for a progress bar. */
  backfill: z
    .object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() })
    .nullable(),
  /** Bytes the store takes in the database (pages of its tables and indexes). */
  bytes: z.number().int().nonnegative().nullable(),
  minedAt: z.string().nullable(),
});
export type AnalyticsStatus = z.infer<typeof analyticsStatusSchema>;

/** GET/PUT /api/analytics/settings (admin). */
export const analyticsSettingsSchema = z.object({
  /** Days of history kept; older changes are deleted daily. */
  retentionDays: z.number().int().min(1).max(3650),
  /** Entities never recorded (and their history deleted when added). */
  excludedEntities: z.array(entityIdSchema).max(2000),
});
export type AnalyticsSettings = z.infer<typeof analyticsSettingsSchema>;
export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = { retentionDays: 90, excludedEntities: [] };

/** DELETE /api/analytics/history (admin): all of it, or one entity's. Answers how many were deleted. */
export const deleteHistoryQuerySchema = z.object({ entity: entityIdSchema.optional() });
export const deleteHistoryResultSchema = z.object({ deleted: z.number().int().nonnegative() });

export const suggestionParamSchema = z.object({ id: z.string().min(1).max(200) });
/** POST /api/analytics/suggestions/:id/automation (admin): creates it in HA. */
export const suggestionAutomationResultSchema = z.object({
  suggestion: suggestionSchema,
  automationId: z.string(),
});
