import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Activity, Boxes } from 'lucide-react';
import { formatBytes } from '@/lib/format-bytes';
import { llmPipelineStatusQueryOptions } from '@/data/llm-status';
import { EmptyState, LoadError, RefreshError, RowsSkeleton, Section } from './section';
import { StatusBadge } from '@/components/status-badge';

const TYPE_LABEL = {
  local: 'Local',
  cloud: 'Cloud',
  hybrid: 'Hybrid (local and cloud)',
  none: 'None configured',
} as const;

/** The pipeline status the dashboard's LLM card shows, in full: every model and provider. */
export function PipelinePanel() {
  const status = useQuery(llmPipelineStatusQueryOptions());
  if (status.isPending) return <RowsSkeleton rows={5} />;
  if (status.isLoadingError) return <LoadError what="the pipeline status" query={status} />;
  const s = status.data;
  return (
    <div className="grid gap-4 lg:grid-cols-[20rem_1fr]">
      <RefreshError what="the pipeline status" query={status} className="lg:col-span-2" />
      <Section title="Pipeline" icon={Activity} description="Checked every few seconds.">
        <dl className="grid gap-3 text-sm" data-testid="pipeline-facts">
          <Row label="Status">
            <StatusBadge word={s.status} />
          </Row>
          <Row label="Type">{TYPE_LABEL[s.pipelineType]}</Row>
          <Row label="Active models">{s.activeModels}</Row>
          <Row label="Requests served">{s.totalRequests.toLocaleString()}</Row>
        </dl>
        <ul className="grid gap-2 text-sm">
          {s.providers.map((p) => (
            <li key={p.name} className="flex items-center justify-between gap-2">
              <span className="font-medium">{p.name}</span>
              <span className="flex items-center gap-2 text-xs text-muted-foreground tabular-nums">
                {p.responseTime !== null ? `${p.responseTime} ms` : (p.error ?? '')}
                {p.activeRequests !== undefined
                  ? ` · ${p.activeRequests} streaming · ${p.servedRequests ?? 0} answered`
                  : ''}
                <StatusBadge word={p.status} />
              </span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Models in the pipeline" icon={Boxes} description="Running models are loaded in memory.">
        {s.models.length === 0 ? (
          <EmptyState icon={Boxes} title="No models available">
            Pull a model in the Models tab or add a provider.
          </EmptyState>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {s.models.map((m) => (
              <li
                key={`${m.provider}/${m.name}`}
                className="flex items-center justify-between gap-2 rounded-lg border p-3 text-sm"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{m.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {m.provider}
                    {m.sizeBytes !== null ? ` · ${formatBytes(m.sizeBytes)}` : ''}
                  </span>
                </span>
                <StatusBadge word={m.status} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{children}</dd>
    </div>
  );
}
