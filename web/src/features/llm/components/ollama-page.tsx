import { useQuery } from '@tanstack/react-query';
import { Cpu } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { useAuth } from '@/features/auth';
import { providerHealthQueryOptions, providersQueryOptions } from '@/data/llm';
import { ChatPanel } from './chat-panel';
import { DeployOllamaAction, OllamaOfflineAlert } from './deploy-ollama';
import { ModelsPanel } from './models-panel';
import { HealthBadge } from './providers-panel';
import { Section } from './section';
import { pageContainer } from '@/components/page-container';

/** /ollama: the hub's Ollama (and other hubs' for admins), its models and pulls, and a chat with its models. */
export function OllamaPage() {
  const { isAdmin } = useAuth();
  const health = useQuery(providerHealthQueryOptions(isAdmin));
  const providers = useQuery({ ...providersQueryOptions(), enabled: isAdmin });
  const ollamaIds = new Set((providers.data ?? []).filter((p) => p.kind === 'ollama').map((p) => p.id));
  const ollamas = (health.data ?? []).filter((h) => h.status !== 'disabled' && ollamaIds.has(h.providerId));
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Ollama Integration</h1>
        <p className="text-muted-foreground">
          The language models running on your own hardware: chat with them and manage them.
        </p>
      </header>
      <OllamaOfflineAlert />
      {isAdmin ? (
        <Section
          title="Ollama servers"
          icon={Cpu}
          description="Health and latency of each Ollama the hub uses."
        >
          <ul className="flex flex-wrap gap-3">
            {health.isPending || providers.isPending ? (
              <li className="text-sm text-muted-foreground">Checking…</li>
            ) : ollamas.length === 0 ? (
              // Not "Checking…" for ever: no Ollama is set up (or all are switched off).
              <li className="grid gap-1 text-sm text-muted-foreground">
                <p>No Ollama server is set up.</p>
                <DeployOllamaAction />
              </li>
            ) : null}
            {ollamas.map((h) => (
              <li key={h.providerId} className="flex items-center gap-2 rounded-lg border px-3 py-2 text-sm">
                <span className="font-medium">{h.name}</span>
                <HealthBadge health={h} />
                {h.version ? <Badge variant="outline">v{h.version}</Badge> : null}
                {h.latencyMs !== null ? (
                  <span className="text-xs text-muted-foreground tabular-nums">{h.latencyMs} ms</span>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <ChatPanel ollamaOnly />
      <ModelsPanel ollamaOnly />
    </div>
  );
}
