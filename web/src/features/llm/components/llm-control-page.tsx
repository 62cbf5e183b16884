import { Suspense, useState } from 'react';
import { lazyComponent } from '@/lib/lazy-code';
import { useLocation } from 'wouter';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth';
import { SpeechPanel } from '@/features/speech';
import { ChatPanel } from './chat-panel';
import { OllamaOfflineAlert } from './deploy-ollama';
import { ModelsPanel } from './models-panel';
import { PipelinePanel } from './pipeline-panel';
import { ProvidersPanel } from './providers-panel';
import { RouterPanel } from './router-panel';
import { pageContainer } from '@/components/page-container';

// /pipeline-builder opens FlowForge's builder (its own feature, loaded only on that path).
const FlowBuilder = lazyComponent(async () => (await import('@/features/flows')).BuilderPage).Component;

type Tab = 'chat' | 'models' | 'providers' | 'router' | 'pipeline' | 'speech';

/** Which tab each of the AI control screen's paths (spec §2) opens on. */
const TAB_BY_PATH: Record<string, Tab> = {
  '/llm': 'chat',
  '/llm-control': 'models',
  '/llm-management': 'models',
  '/pipeline-control': 'pipeline',
  '/llm-pipelines': 'pipeline',
  '/llm-router': 'router',
  '/pipeline-builder': 'router',
};
const ADMIN_TABS: readonly Tab[] = ['providers', 'router'];

/**
 * The AI control screen (/llm, /llm-control, /pipeline-control, /llm-pipelines, /llm-management,
 * /llm-router, /pipeline-builder): chat, models and pulls, providers, the router and the pipeline.
 */
export function LlmControlPage() {
  const [path] = useLocation();
  if (path === '/pipeline-builder') {
    return (
      <Suspense fallback={null}>
        <FlowBuilder />
      </Suspense>
    );
  }
  return <LlmControlTabs path={path} />;
}

function LlmControlTabs({ path }: { path: string }) {
  const { isAdmin } = useAuth();
  const wanted = TAB_BY_PATH[path] ?? 'chat';
  const [tab, setTab] = useState<Tab>(!isAdmin && ADMIN_TABS.includes(wanted) ? 'chat' : wanted);

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">LLM Control Center</h1>
        <p className="text-muted-foreground">
          Chat with local and cloud models, manage the models and providers, and decide which one answers each
          task.
        </p>
      </header>
      <OllamaOfflineAlert />
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="grid gap-4">
        <TabsList className="justify-self-start">
          <TabsTrigger value="chat">Chat</TabsTrigger>
          <TabsTrigger value="models">Models</TabsTrigger>
          {isAdmin ? <TabsTrigger value="providers">Providers</TabsTrigger> : null}
          {isAdmin ? <TabsTrigger value="router">Router</TabsTrigger> : null}
          <TabsTrigger value="pipeline">Pipeline</TabsTrigger>
          <TabsTrigger value="speech">Speech</TabsTrigger>
        </TabsList>
        <TabsContent value="chat">
          <ChatPanel />
        </TabsContent>
        <TabsContent value="models">
          <ModelsPanel />
        </TabsContent>
        {isAdmin ? (
          <TabsContent value="providers">
            <ProvidersPanel />
          </TabsContent>
        ) : null}
        {isAdmin ? (
          <TabsContent value="router">
            <RouterPanel />
          </TabsContent>
        ) : null}
        <TabsContent value="pipeline">
          <PipelinePanel />
        </TabsContent>
        <TabsContent value="speech">
          <SpeechPanel />
        </TabsContent>
      </Tabs>
    </div>
  );
}
