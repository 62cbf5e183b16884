import { useQuery } from '@tanstack/react-query';
import { ServerCrash } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { engineQueryOptions } from '@/data/docker';

/** Says plainly when the console cannot reach the Docker engine, and where it looked. */
export function EngineAlert() {
  const engine = useQuery(engineQueryOptions());
  if (!engine.data || engine.data.reachable) return null;
  return (
    <Alert variant="destructive">
      <ServerCrash aria-hidden="true" />
      <AlertTitle>Docker engine not reachable at {engine.data.endpoint}</AlertTitle>
      <AlertDescription>
        Containers cannot be listed or controlled until the engine answers. Check that Docker runs on the hub
        and that DOCKER_HOST points at it.{' '}
        {engine.data.message &&
        engine.data.message !== `Docker engine not reachable at ${engine.data.endpoint}`
          ? engine.data.message
          : null}
      </AlertDescription>
    </Alert>
  );
}

/** A one-line summary of the engine for page headers. */
export function EngineSummary() {
  const engine = useQuery(engineQueryOptions());
  if (!engine.data?.reachable) return null;
  return (
    <p className="text-xs text-muted-foreground">
      {engine.data.platform} {engine.data.version} (API {engine.data.apiVersion}) at {engine.data.endpoint}
    </p>
  );
}
