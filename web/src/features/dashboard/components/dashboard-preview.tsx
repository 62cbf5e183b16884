import type { UseQueryResult } from '@tanstack/react-query';
import type { HaHealth, LlmPipelineStatus, NexusStatus } from '@nexus/agent/contract';
import { HomeAssistantCard } from './home-assistant-card';
import { LlmCard } from './llm-card';
import { NexusCard } from './nexus-card';

/**
 * The dashboard's own cards fed with sample values, for the landing page (issue 21: show visitors
 * what the console looks like). Nothing here is read from a hub: the values are made up and the
 * frame says so.
 */
const SAMPLE_NEXUS: NexusStatus = {
  status: 'online',
  systemLoad: 23,
  memoryUsage: 41,
  networkStatus: 'connected',
  hostname: 'nexus-hub',
  cpuTemperature: 48.5,
  loadAverage: [0.42, 0.38, 0.35],
  uptime: 9 * 86_400,
  warnings: [],
  sampledAt: 0,
};

const SAMPLE_LLM: LlmPipelineStatus = {
  status: 'running',
  pipelineType: 'local',
  activeModels: 2,
  totalRequests: 1_284,
  models: [
    { name: 'llama3.2:3b', status: 'running', provider: 'ollama', sizeBytes: 2_019_393_189 },
    { name: 'qwen2.5:7b', status: 'available', provider: 'ollama', sizeBytes: 4_683_087_332 },
  ],
  providers: [{ name: 'ollama', status: 'online', responseTime: 12, error: null }],
  checkedAt: 0,
};

const SAMPLE_HA: HaHealth = {
  status: 'online',
  connectionHealth: 'healthy',
  devicesCount: 38,
  entitiesCount: 214,
  responseTime: 42,
};

/** A settled query holding sample data: the cards read only data, error, isFetching and refetch. */
function sample<T>(data: T): UseQueryResult<T, Error> {
  return {
    data,
    error: null,
    isFetching: false,
    dataUpdatedAt: 0,
    refetch: async () => undefined,
  } as unknown as UseQueryResult<T, Error>;
}

export function DashboardPreview() {
  return (
    <figure className="grid gap-3">
      {/* inert: a picture of the console, not a second console; its links and buttons do nothing. */}
      <div
        inert
        data-testid="dashboard-preview"
        className="pointer-events-none grid gap-4 rounded-xl border bg-background p-4 shadow-lg select-none md:grid-cols-3"
      >
        <NexusCard query={sample(SAMPLE_NEXUS)} />
        <LlmCard query={sample(SAMPLE_LLM)} />
        <HomeAssistantCard query={sample(SAMPLE_HA)} />
      </div>
      <figcaption className="text-sm text-muted-foreground">
        Preview with sample values: the dashboard&apos;s own cards, not data from a hub.
      </figcaption>
    </figure>
  );
}
