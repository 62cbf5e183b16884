import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { listAudioInputs } from '@/lib/audio';
import {
  crowdsourceUploadResultSchema,
  crowdsourceWakeWordSchema,
  engineExportSchema,
  wakeWordSampleSchema,
  wakeWordSchema,
  type CreateWakeWordInput,
  type Engine,
  type SampleSource,
  type SampleStatus,
  type UpdateWakeWordInput,
} from '@nexus/agent/contract';
import { apiJson, apiRequest, throwIfNotOk } from '@/lib/request';

export const WAKE_WORDS_API = '/api/wake-words';
export const CROWDSOURCE_API = '/api/crowdsource';

/** Keys joined with '/' are the paths they fetch (spec §7). */
export const wakeWordKeys = {
  all: [WAKE_WORDS_API] as const,
  one: (id: number) => [WAKE_WORDS_API, id] as const,
  samples: (id: number, query: string) => [WAKE_WORDS_API, id, `samples${query}`] as const,
  export: (id: number, engine: Engine) => [WAKE_WORDS_API, id, `export?engine=${engine}`] as const,
  crowdsource: () => [CROWDSOURCE_API] as const,
  crowdsourceOne: (slug: string) => [CROWDSOURCE_API, slug] as const,
};

export const wakeWordsQueryOptions = () =>
  queryOptions({
    queryKey: wakeWordKeys.all,
    queryFn: async () => wakeWordSchema.array().parse(await apiJson('GET', WAKE_WORDS_API)),
  });

export const wakeWordQueryOptions = (id: number) =>
  queryOptions({
    queryKey: wakeWordKeys.one(id),
    queryFn: async () => wakeWordSchema.parse(await apiJson('GET', `${WAKE_WORDS_API}/${id}`)),
  });

export function samplesQuery(filter: { status?: SampleStatus; source?: SampleSource }): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.source) params.set('source', filter.source);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const samplesQueryOptions = (
  id: number,
  filter: { status?: SampleStatus; source?: SampleSource } = {},
) =>
  queryOptions({
    queryKey: wakeWordKeys.samples(id, samplesQuery(filter)),
    queryFn: async () =>
      wakeWordSampleSchema
        .array()
        .parse(await apiJson('GET', `${WAKE_WORDS_API}/${id}/samples${samplesQuery(filter)}`)),
  });

export const engineExportQueryOptions = (id: number, engine: Engine) =>
  queryOptions({
    queryKey: wakeWordKeys.export(id, engine),
    queryFn: async () =>
      engineExportSchema.parse(await apiJson('GET', `${WAKE_WORDS_API}/${id}/export?engine=${engine}`)),
  });

export const crowdsourceListQueryOptions = () =>
  queryOptions({
    queryKey: wakeWordKeys.crowdsource(),
    queryFn: async () => crowdsourceWakeWordSchema.array().parse(await apiJson('GET', CROWDSOURCE_API)),
  });

export const crowdsourceQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: wakeWordKeys.crowdsourceOne(slug),
    queryFn: async () =>
      crowdsourceWakeWordSchema.parse(await apiJson('GET', `${CROWDSOURCE_API}/${encodeURIComponent(slug)}`)),
    retry: false,
  });

export const sampleAudioUrl = (wakeWordId: number, sampleId: number) =>
  `${WAKE_WORDS_API}/${wakeWordId}/samples/${sampleId}/audio`;
export const datasetUrl = (wakeWordId: number) => `${WAKE_WORDS_API}/${wakeWordId}/dataset`;

function useInvalidateWakeWords() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: wakeWordKeys.all });
}

export function useCreateWakeWord() {
  const invalidate = useInvalidateWakeWords();
  return useMutation({
    mutationFn: async (input: CreateWakeWordInput) =>
      wakeWordSchema.parse(await apiJson('POST', WAKE_WORDS_API, input)),
    onSuccess: invalidate,
  });
}

export function useUpdateWakeWord(id: number) {
  const invalidate = useInvalidateWakeWords();
  return useMutation({
    mutationFn: async (input: UpdateWakeWordInput) =>
      wakeWordSchema.parse(await apiJson('PATCH', `${WAKE_WORDS_API}/${id}`, input)),
    onSuccess: invalidate,
  });
}

export function useDeleteWakeWord() {
  const invalidate = useInvalidateWakeWords();
  return useMutation({
    mutationFn: async (id: number) => apiRequest('DELETE', `${WAKE_WORDS_API}/${id}`),
    onSuccess: invalidate,
  });
}

export function useUploadSample(id: number) {
  const invalidate = useInvalidateWakeWords();
  return useMutation({
    mutationFn: async (input: { wav: Blob; device: string; speaker: string }) => {
      const params = new URLSearchParams({ device: input.device, speaker: input.speaker });
      const res = await fetch(`${WAKE_WORDS_API}/${id}/samples?${params}`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'audio/wav' },
        body: input.wav,
      });
      await throwIfNotOk(res);
      return wakeWordSampleSchema.parse(await res.json());
    },
    onSuccess: invalidate,
  });
}

export function useReviewSample(id: number) {
  const invalidate = useInvalidateWakeWords();
  return useMutation({
    mutationFn: async (input: { sampleId: number; status: 'accepted' | 'rejected' }) =>
      wakeWordSampleSchema.parse(
        await apiJson('PATCH', `${WAKE_WORDS_API}/${id}/samples/${input.sampleId}`, { status: input.status }),
      ),
    onSuccess: invalidate,
  });
}

export function useDeleteSample(id: number) {
  const invalidate = useInvalidateWakeWords();
  return useMutation({
    mutationFn: async (sampleId: number) =>
      apiRequest('DELETE', `${WAKE_WORDS_API}/${id}/samples/${sampleId}`),
    onSuccess: invalidate,
  });
}

export function useContribute(slug: string) {
  return useMutation({
    mutationFn: async (input: { wav: Blob; speaker?: string }) => {
      const params = new URLSearchParams({ consent: 'true' });
      if (input.speaker) params.set('speaker', input.speaker);
      const res = await fetch(`${CROWDSOURCE_API}/${encodeURIComponent(slug)}/samples?${params}`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'audio/wav' },
        body: input.wav,
      });
      await throwIfNotOk(res);
      return crowdsourceUploadResultSchema.parse(await res.json());
    },
  });
}

export function useDeleteContribution() {
  return useMutation({
    mutationFn: async (token: string) => apiRequest('POST', `${CROWDSOURCE_API}/deletions`, { token }),
  });
}

/** Not an agent endpoint: the browser's own recording devices, cached like an answer. */
const MEDIA_DEVICES_KEY = ['media-devices'] as const;

/** The browser's recording devices for takes, and a way to read them again (a device came or went). */
export function useAudioInputs() {
  const queryClient = useQueryClient();
  const devices =
    useQuery({ queryKey: MEDIA_DEVICES_KEY, queryFn: listAudioInputs, staleTime: Infinity }).data ?? [];
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: MEDIA_DEVICES_KEY }),
    [queryClient],
  );
  return { devices, refresh };
}
