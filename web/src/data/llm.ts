import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  conversationDetailSchema,
  conversationListSchema,
  llmModelDetailsSchema,
  llmEndpointListSchema,
  llmModelListSchema,
  llmProviderSchema,
  llmProvidersHealthSchema,
  LLM_PULLS_TOPIC,
  pullJobListSchema,
  pullJobSchema,
  routerRuleSchema,
  routerStateSchema,
  tokenizeResultSchema,
  usageReportSchema,
  type CreateLlmProviderInput,
  type LlmTask,
  type RouterRuleInput,
  type TOKENIZER_ENCODINGS,
  type UpdateLlmProviderInput,
  chatStreamEventSchema,
  type ChatInput,
  type ChatStreamEvent,
} from '@nexus/agent/contract';
import { queryClient, rereadQueries } from '@/lib/query-client';
import { llmStatusKeys } from './llm-status';
import { billingKeys } from './subscription';
import { apiJson } from '@/lib/request';
import { postForEvents } from '@/lib/sse';
import { useLiveTopic } from '@/lib/live';

export const LLM_API = '/api/llm';
/** Provider health on the screens: often enough to notice a provider going away. */
export const HEALTH_REFRESH_MS = 10_000;
/** The model list (loaded models change as Ollama loads and unloads them). */
export const MODELS_REFRESH_MS = 15_000;

/** Keys joined with '/' are the paths they fetch (spec §7). */
export const llmKeys = {
  all: [LLM_API] as const,
  models: () => [LLM_API, 'models'] as const,
  providers: () => [LLM_API, 'providers'] as const,
  health: () => [LLM_API, 'providers', 'health'] as const,
  pulls: () => [LLM_API, 'pulls'] as const,
  conversations: () => [LLM_API, 'conversations'] as const,
  conversation: (id: number) => [LLM_API, 'conversations', id] as const,
  router: () => [LLM_API, 'router'] as const,
  endpoints: () => [LLM_API, 'endpoints'] as const,
  usage: (days: number) => [LLM_API, `usage?days=${days}`] as const,
};

export const modelsQueryOptions = () =>
  queryOptions({
    queryKey: llmKeys.models(),
    queryFn: async () => llmModelListSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/models`)),
    refetchInterval: MODELS_REFRESH_MS,
  });

export const providersQueryOptions = () =>
  queryOptions({
    queryKey: llmKeys.providers(),
    queryFn: async () =>
      llmProviderSchema
        .array()
        .parse((await apiJson<{ providers: unknown }>('GET', `${LLM_API}/providers`)).providers),
  });

export const providerHealthQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: llmKeys.health(),
    queryFn: async () =>
      llmProvidersHealthSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/providers/health`)).providers,
    refetchInterval: HEALTH_REFRESH_MS,
    enabled,
  });

export const pullsQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: llmKeys.pulls(),
    queryFn: async () => pullJobListSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/pulls`)).pulls,
    enabled,
  });

export const conversationsQueryOptions = () =>
  queryOptions({
    queryKey: llmKeys.conversations(),
    queryFn: async () =>
      conversationListSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/conversations`)).conversations,
  });

export const conversationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: llmKeys.conversation(id),
    queryFn: async () =>
      conversationDetailSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/conversations/${id}`)),
  });

export const routerQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: llmKeys.router(),
    queryFn: async () => routerStateSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/router`)),
    refetchInterval: HEALTH_REFRESH_MS,
    enabled,
  });

/** The built-in provider's Ollama endpoints: this hub's and the fleet nodes' (admins). */
export const endpointsQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: llmKeys.endpoints(),
    queryFn: async () =>
      llmEndpointListSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/endpoints`)).endpoints,
    refetchInterval: HEALTH_REFRESH_MS,
    enabled,
  });

export const usageQueryOptions = (days: number) =>
  queryOptions({
    queryKey: llmKeys.usage(days),
    queryFn: async () =>
      usageReportSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/usage?days=${days}`)),
  });

export async function fetchModelDetails(providerId: number, name: string) {
  const q = new URLSearchParams({ providerId: String(providerId), name });
  return llmModelDetailsSchema.parse(await apiJson<unknown>('GET', `${LLM_API}/models/show?${q}`));
}

/** What a model's provider says about it, for the details dialog (null: nothing asked yet). */
export const modelDetailsQueryOptions = (model: { providerId: number; name: string } | null) =>
  queryOptions({
    queryKey: [...llmKeys.models(), 'show', model?.providerId, model?.name],
    queryFn: () => fetchModelDetails(model!.providerId, model!.name),
    enabled: model !== null,
  });

export type TokenizerEncoding = (typeof TOKENIZER_ENCODINGS)[number];

export async function tokenize(text: string, encoding: TokenizerEncoding) {
  return tokenizeResultSchema.parse(
    await apiJson<unknown>('POST', `${LLM_API}/tokenize`, { text, encoding }),
  );
}

/** The tokenizer's answer for a text; the previous answer stays while the next is asked. */
export const tokenizeQueryOptions = (text: string, encoding: TokenizerEncoding) =>
  queryOptions({
    queryKey: [LLM_API, 'tokenize', encoding, text],
    queryFn: () => tokenize(text, encoding),
    placeholderData: keepPreviousData,
  });

function useInvalidate() {
  const qc = useQueryClient();
  return (...keys: (readonly unknown[])[]) =>
    Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

export function useCreateProvider() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (input: CreateLlmProviderInput) =>
      llmProviderSchema.parse(
        (await apiJson<{ provider: unknown }>('POST', `${LLM_API}/providers`, input)).provider,
      ),
    onSuccess: () =>
      invalidate(llmKeys.providers(), llmKeys.health(), llmKeys.models(), llmStatusKeys.pipeline),
  });
}

export function useUpdateProvider() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: number; changes: UpdateLlmProviderInput }) =>
      llmProviderSchema.parse(
        (await apiJson<{ provider: unknown }>('PATCH', `${LLM_API}/providers/${id}`, changes)).provider,
      ),
    onSuccess: () =>
      invalidate(llmKeys.providers(), llmKeys.health(), llmKeys.models(), llmStatusKeys.pipeline),
  });
}

export function useDeleteProvider() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiJson('DELETE', `${LLM_API}/providers/${id}`),
    onSuccess: () => invalidate(llmKeys.providers(), llmKeys.health(), llmKeys.models(), llmKeys.router()),
  });
}

export function useStartPull() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (input: { providerId?: number; model: string }) =>
      pullJobSchema.parse((await apiJson<{ pull: unknown }>('POST', `${LLM_API}/pulls`, input)).pull),
    onSuccess: () => invalidate(llmKeys.pulls()),
  });
}

export function useCancelPull() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => apiJson('DELETE', `${LLM_API}/pulls/${id}`),
    onSuccess: () => invalidate(llmKeys.pulls()),
  });
}

export function useDeleteModel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ providerId, name }: { providerId: number; name: string }) =>
      apiJson('DELETE', `${LLM_API}/models?${new URLSearchParams({ providerId: String(providerId), name })}`),
    onSuccess: () => invalidate(llmKeys.models(), llmStatusKeys.pipeline),
  });
}

export function useSaveRule() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ task, rule }: { task: LlmTask; rule: RouterRuleInput }) =>
      routerRuleSchema.parse(
        (await apiJson<{ rule: unknown }>('PUT', `${LLM_API}/router/rules/${task}`, rule)).rule,
      ),
    onSuccess: () => invalidate(llmKeys.router()),
  });
}

export function useDeleteRule() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (task: LlmTask) => apiJson('DELETE', `${LLM_API}/router/rules/${task}`),
    onSuccess: () => invalidate(llmKeys.router()),
  });
}

export function useDeleteConversation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiJson('DELETE', `${LLM_API}/conversations/${id}`),
    onSuccess: () => invalidate(llmKeys.conversations()),
  });
}

// ---- chat (streamed as server-sent events)

export const LOST_CONNECTION_MESSAGE = 'The connection to the hub ended before the answer was complete.';

/**
 * Sends a chat and hands each server-sent event to `onEvent` as it arrives (parsed by
 * eventsource-parser). A refusal before the answer starts (400, 403, 404, 429, 502…) throws the
 * usual ApiRequestError. A stream that ends without `done` or `error` produces an `error` event,
 * so the screen never waits for an answer that will not come. Aborting `signal` is the stop button.
 * However it ends, the conversation list, the subscription's usage and the pipeline's state are
 * read again: a chat changes all three.
 */
export async function streamChat(
  input: ChatInput,
  onEvent: (event: ChatStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await readChat(input, onEvent, signal);
  } finally {
    void queryClient.invalidateQueries({ queryKey: llmKeys.conversations() });
    void queryClient.invalidateQueries({ queryKey: billingKeys.status() });
    void queryClient.invalidateQueries({ queryKey: llmStatusKeys.pipeline });
  }
}

async function readChat(
  input: ChatInput,
  onEvent: (event: ChatStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const ended = await postForEvents(
    `${LLM_API}/chat`,
    input,
    (message) => {
      let parsed;
      try {
        parsed = chatStreamEventSchema.safeParse(JSON.parse(message.data));
      } catch {
        return false;
      }
      if (!parsed.success) return false;
      onEvent(parsed.data);
      return parsed.data.type === 'done' || parsed.data.type === 'error';
    },
    signal,
  );
  if (!ended) onEvent({ type: 'error', message: LOST_CONNECTION_MESSAGE, status: 502 });
}

/** Keeps the model pulls current from the `llm.pulls` live topic; a finished pull refreshes the models. */
export function usePullsLive() {
  const client = useQueryClient();
  return useLiveTopic(LLM_PULLS_TOPIC, {
    onEvent: (data) => {
      const parsed = pullJobListSchema.safeParse(data);
      if (!parsed.success) return;
      client.setQueryData(llmKeys.pulls(), parsed.data.pulls);
      if (parsed.data.pulls.some((p) => p.status === 'success')) {
        // A read of the models under way may predate the pull's end (lib/query-client).
        void rereadQueries(client, llmKeys.models());
      }
    },
  });
}
