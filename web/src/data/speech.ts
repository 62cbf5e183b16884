import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SPEECH_ENGINE_HEADER,
  SPEECH_MS_HEADER,
  speechProbeResultSchema,
  speechSettingsSchema,
  transcriptionSchema,
  type SpeechProbeInput,
  type SpeechSettingsInput,
  type SynthesizeInput,
} from '@nexus/agent/contract';
import { apiJson, apiRequest } from '@/lib/request';

export const SPEECH_API = '/api/speech';

/** Keys joined with '/' are the paths they fetch (spec §7). */
export const speechKeys = {
  all: [SPEECH_API] as const,
  settings: () => [SPEECH_API, 'settings'] as const,
};

export const speechSettingsQueryOptions = () =>
  queryOptions({
    queryKey: speechKeys.settings(),
    queryFn: async () =>
      speechSettingsSchema.parse(
        (await apiJson<{ settings: unknown }>('GET', `${SPEECH_API}/settings`)).settings,
      ),
  });

export function useSpeechSettings() {
  return useQuery(speechSettingsQueryOptions());
}

export function useSaveSpeechSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SpeechSettingsInput) =>
      speechSettingsSchema.parse(
        (await apiJson<{ settings: unknown }>('PUT', `${SPEECH_API}/settings`, input)).settings,
      ),
    onSuccess: (settings) => queryClient.setQueryData(speechKeys.settings(), settings),
  });
}

export function useProbeSpeechService() {
  return useMutation({
    mutationFn: async (input: SpeechProbeInput) =>
      speechProbeResultSchema.parse(
        (await apiJson<{ probe: unknown }>('POST', `${SPEECH_API}/probe`, input)).probe,
      ),
  });
}

export function useTranscribe() {
  return useMutation({
    mutationFn: async (clip: Blob) => {
      // The agent reads WAV only; a file picked without a type still is one when its name says so.
      const body = clip.type === 'audio/wav' ? clip : new Blob([clip], { type: 'audio/wav' });
      return transcriptionSchema.parse(
        (await apiJson<{ transcription: unknown }>('POST', `${SPEECH_API}/transcribe`, body)).transcription,
      );
    },
  });
}

export interface Synthesized {
  audio: Blob;
  engine: string;
  ms: number;
}

export function useSynthesize() {
  return useMutation({
    mutationFn: async (input: SynthesizeInput): Promise<Synthesized> => {
      const res = await apiRequest('POST', `${SPEECH_API}/synthesize`, input);
      return {
        audio: await res.blob(),
        engine: res.headers.get(SPEECH_ENGINE_HEADER) ?? 'wyoming',
        ms: Number(res.headers.get(SPEECH_MS_HEADER) ?? 0),
      };
    },
  });
}
