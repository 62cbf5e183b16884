import type { UseQueryResult } from '@tanstack/react-query';
import { BrainCircuit } from 'lucide-react';
import type { LlmPipelineStatus } from '@nexus/agent/contract';
import { DEPLOY_OLLAMA_HREF } from '@/features/deploy/deploy-links';
import { modelPreview, requestCount } from '../dashboard-logic';
import { CardEmpty, Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge, StatusText } from '@/components/status-badge';

const PIPELINE_TYPE_LABELS: Record<LlmPipelineStatus['pipelineType'], string> = {
  local: 'Local',
  cloud: 'Cloud',
  hybrid: 'Hybrid',
  none: 'Not configured',
};

export function LlmCard({ query }: { query: UseQueryResult<LlmPipelineStatus, Error> }) {
  return (
    <QueryCard
      title="LLMs"
      icon={BrainCircuit}
      source="the LLM pipeline"
      query={query}
      skeletonRows={4}
      badge={(llm) => <StatusBadge word={llm.status} />}
    >
      {(llm) => <LlmSummary llm={llm} />}
    </QueryCard>
  );
}

function LlmSummary({ llm }: { llm: LlmPipelineStatus }) {
  const preview = modelPreview(llm.models);
  return (
    <>
      <Facts>
        <Fact label="Pipeline">{PIPELINE_TYPE_LABELS[llm.pipelineType]}</Fact>
        <Fact label="Active models">{llm.activeModels}</Fact>
        <Fact label="Total requests">{requestCount(llm).toLocaleString()}</Fact>
      </Facts>
      {llm.status === 'offline' ? (
        <CardEmpty
          title="No model provider answers"
          // A fresh hub has no Ollama running: deploying it is the one action that fixes this.
          action={{ label: 'Deploy Ollama', href: DEPLOY_OLLAMA_HREF }}
        >
          {offlineHint(llm)}
        </CardEmpty>
      ) : llm.models.length === 0 ? (
        <CardEmpty title="No models installed" action={{ label: 'Add a model', href: '/llm' }}>
          Pull a local model or connect a cloud provider in the LLM Control Center.
        </CardEmpty>
      ) : (
        <div className="grid gap-1.5">
          <h3 className="text-xs font-medium text-muted-foreground">Models</h3>
          <ul className="grid gap-1.5 text-sm" aria-label="Models">
            {preview.shown.map((model) => (
              <li key={`${model.provider}:${model.name}`} className="flex items-center justify-between gap-2">
                <span className="min-w-0 truncate">
                  <span className="font-medium">{model.name}</span>{' '}
                  <span className="text-xs text-muted-foreground">{model.provider}</span>
                </span>
                <StatusText word={model.status} className="text-xs" />
              </li>
            ))}
          </ul>
          {preview.moreLabel ? <p className="text-xs text-muted-foreground">{preview.moreLabel}</p> : null}
        </div>
      )}
    </>
  );
}

function offlineHint(llm: LlmPipelineStatus): string {
  const failed = llm.providers.find((p) => p.status === 'offline' && p.error)?.error;
  if (llm.providers.length === 0)
    return 'Deploy Ollama on the hub, or add a cloud provider in the LLM Control Center.';
  return failed
    ? `${failed.replace(/\.$/, '')}. Deploy Ollama on the hub, or add another provider.`
    : 'Deploy Ollama on the hub, or add a cloud provider.';
}
