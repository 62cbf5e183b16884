import { useQuery } from '@tanstack/react-query';
import { Rocket, ServerOff } from 'lucide-react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/features/auth';
import { DEPLOY_OLLAMA_HREF } from '@/features/deploy/deploy-links';
import { providerHealthQueryOptions, providersQueryOptions } from '@/data/llm';

/** The fix for "Ollama is offline": an admin deploys it from the catalog; a member asks one. */
export function DeployOllamaAction() {
  const { isAdmin } = useAuth();
  if (!isAdmin) return <p>Ask an administrator of the hub to deploy Ollama.</p>;
  return (
    <Button asChild size="sm" className="mt-2 w-fit">
      <Link href={DEPLOY_OLLAMA_HREF}>
        <Rocket aria-hidden="true" />
        Deploy Ollama
      </Link>
    </Button>
  );
}

/**
 * Whether this hub's own Ollama does not answer (admins: the health check names it; members cannot
 * read the providers, so for them the pipeline's "no provider answers" stands in).
 */
export function useHubOllamaOffline(): boolean {
  const { isAdmin } = useAuth();
  const providers = useQuery({ ...providersQueryOptions(), enabled: isAdmin });
  const health = useQuery(providerHealthQueryOptions(isAdmin));
  const builtIn = providers.data?.find((p) => p.builtIn && p.kind === 'ollama');
  if (!builtIn || !builtIn.enabled) return false;
  return health.data?.find((h) => h.providerId === builtIn.id)?.status === 'offline';
}

/** Said on the LLM screens while the hub's Ollama is offline, with the action that fixes it. */
export function OllamaOfflineAlert() {
  const offline = useHubOllamaOffline();
  if (!offline) return null;
  return (
    <Alert variant="warning" data-testid="ollama-offline">
      <ServerOff aria-hidden="true" />
      <AlertTitle>Ollama isn&apos;t running on this hub</AlertTitle>
      <AlertDescription>
        <p>Local models need Ollama. Deploy it from the app catalog, then pull a model.</p>
        <DeployOllamaAction />
      </AlertDescription>
    </Alert>
  );
}
