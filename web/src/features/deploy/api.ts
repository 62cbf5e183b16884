import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { catalogListSchema, deployEventSchema } from '@nexus/agent/contract';
import { postNdjson } from '@/lib/ndjson';
import { ApiRequestError, apiJson, errorMessage } from '@/lib/request';
import { initialProgress, reduceDeploy, type DeployProgress } from './deploy-progress';

export const CATALOG_PATH = '/api/docker/catalog';
export const STACKS_PATH = '/api/docker/stacks';

export const catalogQueryOptions = () =>
  queryOptions({
    // The docker screens read the same answer under the same key.
    queryKey: ['/api/docker', 'catalog'],
    queryFn: async () => catalogListSchema.parse(await apiJson<unknown>('GET', CATALOG_PATH)).apps,
  });

/**
 * Runs a streamed deployment and keeps its progress for the view. A refusal before the stream
 * starts (bad compose file, engine down, name taken) ends it as failed with the agent's message.
 */
export function useDeployStream() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<DeployProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = useCallback(
    async (path: string, body: unknown) => {
      controller.current?.abort();
      controller.current = new AbortController();
      setProgress(initialProgress());
      try {
        await postNdjson(
          path,
          body,
          (raw) => {
            const event = deployEventSchema.safeParse(raw);
            if (event.success) setProgress((p) => reduceDeploy(p ?? initialProgress(), event.data));
          },
          controller.current.signal,
        );
      } catch (error) {
        let details: unknown;
        if (error instanceof ApiRequestError) {
          try {
            details = (JSON.parse(error.bodyText) as { details?: unknown }).details;
          } catch {
            details = undefined;
          }
        }
        setProgress((p) =>
          reduceDeploy(p ?? initialProgress(), {
            type: 'error',
            status: error instanceof ApiRequestError ? error.status : 0,
            message: errorMessage(error) ?? 'The deployment could not start',
            details,
          }),
        );
      } finally {
        void queryClient.invalidateQueries({ queryKey: ['/api/docker'] });
      }
    },
    [queryClient],
  );

  return { progress, start, reset: () => setProgress(null) };
}
