import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, type LlmPipelineStatus } from '@nexus/agent/contract';
import { array, nullable, number, object, oneOf, optional, string, type Shape } from '@/lib/answer-shape';
import { getParsed } from './auth-session';

/** The voice pipeline's readiness (agent: features/llm-status): the dashboard card and the LLM screen read one key. */
export const PIPELINE_STATUS_PATH = '/api/llm/pipeline/status';
export const llmStatusKeys = { pipeline: [PIPELINE_STATUS_PATH] as const };

type LlmModel = LlmPipelineStatus['models'][number];
type LlmProviderHealth = LlmPipelineStatus['providers'][number];

/**
 * contract/status.ts llmPipelineStatusSchema, as a small shape (lib/answer-shape): the dashboard's
 * first figures do not wait for zod (issue 26).
 */
export const llmPipelineStatusShape: Shape<LlmPipelineStatus> = object<LlmPipelineStatus>({
  status: oneOf(['running', 'degraded', 'offline']),
  pipelineType: oneOf(['local', 'cloud', 'hybrid', 'none']),
  activeModels: number,
  totalRequests: number,
  models: array(
    object<LlmModel>({
      name: string,
      status: oneOf(['running', 'available', 'offline']),
      provider: string,
      sizeBytes: nullable(number),
    }),
  ),
  providers: array(
    object<LlmProviderHealth>({
      name: string,
      status: oneOf(['online', 'offline']),
      responseTime: nullable(number),
      error: nullable(string),
      activeRequests: optional(number),
      servedRequests: optional(number),
    }),
  ),
  checkedAt: number,
});

export const llmPipelineStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: llmStatusKeys.pipeline,
    queryFn: () => getParsed(PIPELINE_STATUS_PATH, llmPipelineStatusShape),
    refetchInterval: POLL_INTERVALS_MS.llmPipelineStatus,
    enabled: signedIn,
  });
