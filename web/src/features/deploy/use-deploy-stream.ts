import { useCallback, useRef, useState } from 'react';
import { streamDeploy, type DeployRequest } from '@/data/docker';
import { ApiRequestError, errorMessage } from '@/lib/request';
import { initialProgress, reduceDeploy, type DeployProgress } from './deploy-progress';

/**
 * Runs a streamed deployment and keeps its progress for the view. A refusal before the stream
 * starts (bad compose file, engine down, name taken) ends it as failed with the agent's message.
 */
export function useDeployStream() {
  const [progress, setProgress] = useState<DeployProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = useCallback(async (request: DeployRequest) => {
    controller.current?.abort();
    controller.current = new AbortController();
    setProgress(initialProgress());
    try {
      await streamDeploy(
        request,
        (event) => setProgress((p) => reduceDeploy(p ?? initialProgress(), event)),
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
    }
  }, []);

  return { progress, start, reset: () => setProgress(null) };
}
