import { useQuery } from '@tanstack/react-query';
import { Cpu } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { useAuth } from '@/features/auth';
import { providerHealthQueryOptions, providersQueryOptions } from '@/data/llm';
import { ChatPanel } from './chat-panel';
import { ModelsPanel } from './models-panel';
import { HealthBadge } from './providers-panel';
import { Section } from './section';

/** /ollama: the hub's Ollama (and other hubs' for admins), its models and pulls, and a chat with its models. */
export function OllamaPage() {
  const { isAdmin } = useAuth();
  const health = useQuery(providerHealthQueryOptions(isAdmin));
  const providers = useQuery({ ...providersQueryOptions(), enabled: isAdmin });
  const ollamaIds = new Set((providers.data ?? []).filter((p) => p.kind === 'ollama').map((p) => p.id));
  const ollamas = (health.data ?? []).filter((h) => h.status !== 'disabled' && ollamaIds.has(h.providerId));
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-6 px-4 py-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Ollama Integration</h1>
        <p className="text-muted-foreground">
          The language models running on your own hardware: chat with them and manage them.
        </p>
      </header>
      {isAdmin ? (
        <Section
          title="Ollama servers"
          icon={Cpu}
          description="Health and latency of each Ollama the hub uses."
        >
          <ul className="flex flex-wrap gap-3">
            {ollamas.length === 0 ? <li className="text-sm text-muted-foreground">Checking…</li> : null}
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
