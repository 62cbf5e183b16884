import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  analyticsSettingsSchema,
  analyticsStatusSchema,
  anomalyListSchema,
  deleteHistoryResultSchema,
  heatmapSchema,
  predictionListSchema,
  routineListSchema,
  sequenceListSchema,
  suggestionAutomationResultSchema,
  suggestionListSchema,
  suggestionSchema,
  timelineSchema,
  type AnalyticsSettings,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { automationKeys } from './home-assistant';
import { ApiRequestError, apiJson } from '@/lib/request';

/**
 * Behavioural analytics (issue 16): the only module that knows the /api/analytics paths and their
 * query keys. Every answer is parsed with the agent's contract; every mutation says which keys it
 * makes stale. Screens import the hooks and nothing else.
 */
const API = '/api/analytics';

/** Everything under one root, so "history deleted" or "settings changed" can refresh it all at once. */
const keys = {
  all: [API] as const,
  status: [API, 'status'] as const,
  routines: [API, 'routines'] as const,
  sequences: [API, 'sequences'] as const,
  predictions: [API, 'predictions'] as const,
  anomalies: [API, 'anomalies'] as const,
  suggestions: [API, 'suggestions'] as const,
  heatmap: (entity: string, state: string | null) => [API, 'heatmap', entity, state] as const,
  timeline: (date: string, entity: string | null) => [API, 'timeline', date, entity] as const,
  settings: [API, 'settings'] as const,
};

/** Patterns change when the miner runs (hourly on the agent); the screen need not poll fast. */
const MINED_REFRESH_MS = 60_000;
/** The status header: slow normally, fast while a backfill's progress bar moves. */
const STATUS_REFRESH_MS = 30_000;
const BACKFILL_REFRESH_MS = 2_000;
/** Predictions are about the next hour; they move as the clock does. */
const PREDICTIONS_REFRESH_MS = 60_000;

/** A refusal or a missing entity is an answer, not a hiccup: no retries for 400/401/403/404. */
const retryUnlessRefused = (count: number, error: unknown) =>
  !(error instanceof ApiRequestError && [400, 401, 403, 404].includes(error.status)) && count < 2;

export const isForbidden = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

// ---- Reads ----------------------------------------------------------------------------------

export function useAnalyticsStatus() {
  return useQuery({
    queryKey: keys.status,
    queryFn: () => getParsed(`${API}/status`, analyticsStatusSchema),
    // Fast while a backfill runs (its progress bar moves), slow otherwise.
    refetchInterval: (query) => (query.state.data?.backfill ? BACKFILL_REFRESH_MS : STATUS_REFRESH_MS),
    retry: retryUnlessRefused,
  });
}

export function useRoutines() {
  return useQuery({
    queryKey: keys.routines,
    queryFn: () => getParsed(`${API}/routines`, routineListSchema),
    refetchInterval: MINED_REFRESH_MS,
    retry: retryUnlessRefused,
  });
}

export function useSequences() {
  return useQuery({
    queryKey: keys.sequences,
    queryFn: () => getParsed(`${API}/sequences`, sequenceListSchema),
    refetchInterval: MINED_REFRESH_MS,
    retry: retryUnlessRefused,
  });
}

export function usePredictions() {
  return useQuery({
    queryKey: keys.predictions,
    queryFn: () => getParsed(`${API}/predictions`, predictionListSchema),
    refetchInterval: PREDICTIONS_REFRESH_MS,
    retry: retryUnlessRefused,
  });
}

export function useAnomalies() {
  return useQuery({
    queryKey: keys.anomalies,
    queryFn: () => getParsed(`${API}/anomalies`, anomalyListSchema),
    refetchInterval: MINED_REFRESH_MS,
    retry: retryUnlessRefused,
  });
}

export function useSuggestions() {
  return useQuery({
    queryKey: keys.suggestions,
    queryFn: () => getParsed(`${API}/suggestions`, suggestionListSchema),
    refetchInterval: MINED_REFRESH_MS,
    retry: retryUnlessRefused,
  });
}

/** Hour × weekday counts of one entity's changes (to `state` when given); off until an entity is chosen. */
export function useHeatmap(entity: string | null, state: string | null) {
  return useQuery({
    queryKey: keys.heatmap(entity ?? '', state),
    queryFn: () => {
      const params = new URLSearchParams({ entity: entity ?? '' });
      if (state) params.set('state', state);
      return getParsed(`${API}/heatmap?${params}`, heatmapSchema);
    },
    enabled: Boolean(entity),
    // Switching entity keeps the old grid on screen until the new one arrives (no flash of skeleton).
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });
}

/** One day's changes (YYYY-MM-DD in HA's time zone), optionally of one entity. */
export function useTimeline(date: string, entity: string | null = null) {
  return useQuery({
    queryKey: keys.timeline(date, entity),
    queryFn: () => {
      const params = new URLSearchParams({ date });
      if (entity) params.set('entity', entity);
      return getParsed(`${API}/timeline?${params}`, timelineSchema);
    },
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });
}

/** Admin only: the query stays off for members (the agent answers 403 anyway). */
export function useAnalyticsSettings(enabled: boolean) {
  return useQuery({
    queryKey: keys.settings,
    queryFn: () => getParsed(`${API}/settings`, analyticsSettingsSchema),
    enabled,
    retry: retryUnlessRefused,
  });
}

// ---- Changes (admin) ------------------------------------------------------------------------

/** Excluding an entity deletes its history and a shorter retention drops old days: everything may move. */
export function useSaveAnalyticsSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (settings: AnalyticsSettings) =>
      analyticsSettingsSchema.parse(await apiJson('PUT', `${API}/settings`, settings)),
    onSuccess: (saved) => client.setQueryData(keys.settings, saved),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

/** All history, or one entity's; every pattern stands on it. */
export function useDeleteHistory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (entity: string | null) => {
      const query = entity ? `?${new URLSearchParams({ entity })}` : '';
      return deleteHistoryResultSchema.parse(await apiJson('DELETE', `${API}/history${query}`));
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Creates the suggestion's automation in Home Assistant; the automations list gains it. */
export function useCreateAutomationFromSuggestion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      suggestionAutomationResultSchema.parse(
        await apiJson('POST', `${API}/suggestions/${encodeURIComponent(id)}/automation`),
      ),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.suggestions }),
        client.invalidateQueries({ queryKey: automationKeys.all }),
      ]),
  });
}

export function useDismissSuggestion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const answer = await apiJson<unknown>('POST', `${API}/suggestions/${encodeURIComponent(id)}/dismiss`);
      // The agent may answer with the suggestion or with nothing (204); both are fine.
      return answer === undefined ? null : (suggestionSchema.safeParse(answer).data ?? null);
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.suggestions }),
  });
}

/** Mines now rather than at the next scheduled run. */
export function useMineNow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiJson('POST', `${API}/mine`);
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
