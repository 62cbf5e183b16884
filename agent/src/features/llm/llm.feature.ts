import { hostname } from 'node:os';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { LivePublisher } from '../../live/hub.js';
import type { AuditRecorder } from '../audit/index.js';
import { createChatService, type UsageRecorder } from './chat.service.js';
import { createEndpointPool, type OllamaEndpointSource } from './endpoints.service.js';
import { createLlmRepository } from './llm.repository.js';
import { llmRoutes } from './llm.routes.js';
import { createLlmService, type UsageReader } from './llm.service.js';
import { ollamaProxyRoutes } from './ollama-proxy.routes.js';
import { hubModels, type PlanGate } from './plan-gate.js';
import { createProvidersService } from './providers.service.js';
import { createPullsService } from './pulls.service.js';
import { createTokenizeService } from './tokenize.service.js';

/**
 * The LLM control center: providers (the hub's Ollama at OLLAMA_URL and the ones admins add),
 * models and pulls, chat through the router, usage and the tokenizer. `/api/llm` and the admins'
 * `/api/ollama` proxy; `providers.statusProviders()` feeds the dashboard's pipeline status.
 */
export function createLlmFeature(deps: {
  db: Db;
  secrets: SecretBox;
  log: Logger;
  live: LivePublisher;
  ollamaUrl: string;
  /** The hub's plan limits (the subscription's plan-limits module): every AI limit is decided there. */
  limits: PlanGate;
  /** The usage counter: every answered message is recorded there. */
  usage: UsageRecorder & UsageReader;
  /** The security event log: provider API keys set or removed. */
  audit?: AuditRecorder;
  /**
   * The fleet's Ollama endpoints (the swarm's Ollama services): with the hub's own Ollama they
   * answer the built-in provider's chats. Null or absent: the hub's own Ollama alone.
   */
  endpointSource?: OllamaEndpointSource | null;
  /** The name this hub's own Ollama endpoint goes by (its hostname). */
  hubNode?: string;
  now?: () => number;
}) {
  const repo = createLlmRepository(deps.db, deps.now);
  const providers = createProvidersService({
    repo,
    secrets: deps.secrets,
    ollamaUrl: deps.ollamaUrl,
    log: deps.log,
    now: deps.now,
  });
  const gate = deps.limits;
  const endpoints = createEndpointPool({
    hubUrl: deps.ollamaUrl,
    hubNode: deps.hubNode ?? hostname(),
    source: deps.endpointSource ?? null,
    log: deps.log,
    now: deps.now,
  });
  const chat = createChatService({ repo, providers, gate, usage: deps.usage, log: deps.log, endpoints });
  const llm = createLlmService({ repo, providers, gate, usage: deps.usage, now: deps.now });
  const pulls = createPullsService({ providers, gate, live: deps.live, log: deps.log, now: deps.now });
  const tokenizer = createTokenizeService();
  return {
    providers,
    chat,
    routes: llmRoutes({ providers, llm, chat, pulls, tokenizer, repo, audit: deps.audit, endpoints }),
    ollamaProxy: ollamaProxyRoutes(providers),
    /** How many models the hub has (local providers), as the plan's maxModels counts them. */
    hubModelCount: async () => hubModels(gate, await providers.models()).count,
  };
}
