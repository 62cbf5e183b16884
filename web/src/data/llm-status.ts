import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, llmPipelineStatusSchema } from '@nexus/agent/contract';
import { getParsed } from './auth-session';

/** The voice pipeline's readiness (agent: features/llm-status): the dashboard card and the LLM screen read one key. */
export const PIPELINE_STATUS_PATH = '/api/llm/pipeline/status';
export const llmStatusKeys = { pipeline: [PIPELINE_STATUS_PATH] as const };

export const llmPipelineStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: llmStatusKeys.pipeline,
    queryFn: () => getParsed(PIPELINE_STATUS_PATH, llmPipelineStatusSchema),
    refetchInterval: POLL_INTERVALS_MS.llmPipelineStatus,
    enabled: signedIn,
  });
