import { z } from 'zod';

/**
 * The LLM control center (/llm, /ollama, /llm-router, /llm-usage-discovery, /tokenization-demo):
 * providers, models, chat, the router, usage and the tokenizer.
 */

/** ollama: Ollama's own API (this hub's or another hub's); openai: any OpenAI-compatible Chat Completions API. */
export const LLM_PROVIDER_KINDS = ['ollama', 'openai'] as const;
export const llmProviderKindSchema = z.enum(LLM_PROVIDER_KINDS);
export type LlmProviderKind = z.infer<typeof llmProviderKindSchema>;

/** The name of the built-in provider: the hub's own Ollama at OLLAMA_URL. */
export const BUILT_IN_PROVIDER_NAME = 'ollama';

const providerName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'Use letters, digits, spaces, dots, dashes or underscores');
const baseUrl = z
  .url({ protocol: /^https?$/, message: 'Enter an http:// or https:// address' })
  .max(500)
  .transform((u) => u.replace(/\/+$/, ''));
const apiKey = z.string().trim().min(1).max(500);

export const llmProviderSchema = z.object({
  id: z.number().int(),
  kind: llmProviderKindSchema,
  name: z.string(),
  baseUrl: z.string(),
  /** Models on it run on hardware of the home (Ollama, a local OpenAI-compatible server) rather than in a cloud. */
  local: z.boolean(),
  /** Whether an API key is stored. The key itself is never returned. */
  hasApiKey: z.boolean(),
  enabled: z.boolean(),
  /** Lower goes first when several providers can answer. */
  priority: z.number().int(),
  /** The hub's own Ollama at OLLAMA_URL: it can be disabled but not removed or moved. */
  builtIn: z.boolean(),
  createdAt: z.string(),
});
export type LlmProvider = z.infer<typeof llmProviderSchema>;

export const createLlmProviderInputSchema = z.object({
  kind: llmProviderKindSchema,
  name: providerName,
  baseUrl,
  apiKey: apiKey.optional(),
  local: z.boolean().optional(),
  enabled: z.boolean().default(true),
  priority: z.number().int().min(0).max(1000).default(100),
});
export type CreateLlmProviderInput = z.input<typeof createLlmProviderInputSchema>;

export const updateLlmProviderInputSchema = z
  .object({
    name: providerName,
    baseUrl,
    /** A new key, or null to remove the stored one. */
    apiKey: apiKey.nullable(),
    local: z.boolean(),
    enabled: z.boolean(),
    priority: z.number().int().min(0).max(1000),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type UpdateLlmProviderInput = z.input<typeof updateLlmProviderInputSchema>;

export const llmProviderHealthEntrySchema = z.object({
  providerId: z.number().int(),
  name: z.string(),
  status: z.enum(['online', 'offline', 'disabled']),
  /** Milliseconds the health check took; null when it failed. */
  latencyMs: z.number().nullable(),
  /** What the provider says it is (Ollama's /api/version), when it says. */
  version: z.string().nullable(),
  error: z.string().nullable(),
  /** Chats streaming through it now, and answered since the agent started (the router's load spread). */
  activeRequests: z.number().int(),
  servedRequests: z.number().int(),
  failedRequests: z.number().int(),
  checkedAt: z.number(),
});
export type LlmProviderHealthEntry = z.infer<typeof llmProviderHealthEntrySchema>;
export const llmProvidersHealthSchema = z.object({ providers: z.array(llmProviderHealthEntrySchema) });

/** One model on one provider. Sizes in bytes; null where the provider does not say (OpenAI-compatible APIs). */
export const llmModelInfoSchema = z.object({
  providerId: z.number().int(),
  providerName: z.string(),
  providerKind: llmProviderKindSchema,
  /** local or cloud, as the subscription's limits.aiModels names them. */
  modelClass: z.enum(['local', 'cloud']),
  name: z.string(),
  size: z.number().nullable(),
  family: z.string().nullable(),
  parameterSize: z.string().nullable(),
  quantization: z.string().nullable(),
  format: z.string().nullable(),
  digest: z.string().nullable(),
  modifiedAt: z.string().nullable(),
  /** Loaded in memory now (Ollama's /api/ps). */
  loaded: z.boolean(),
  /** Bytes of the loaded model in GPU memory. */
  sizeVram: z.number().nullable(),
  /** When Ollama unloads it if unused. */
  expiresAt: z.string().nullable(),
  /** Whether the hub's plan lets people chat with it (limits.aiModels). */
  allowed: z.boolean(),
});
export type LlmModelInfo = z.infer<typeof llmModelInfoSchema>;

export const llmModelListSchema = z.object({
  models: z.array(llmModelInfoSchema),
  /** Providers that could not be asked, so the list may be missing their models. */
  unreachable: z.array(z.object({ providerId: z.number().int(), name: z.string(), error: z.string() })),
});
export type LlmModelList = z.infer<typeof llmModelListSchema>;

export const modelRefQuerySchema = z.object({
  providerId: z.coerce.number().int().positive(),
  name: z.string().trim().min(1).max(200),
});

/** Ollama's /api/show, in the console's words. */
export const llmModelDetailsSchema = z.object({
  name: z.string(),
  providerId: z.number().int(),
  contextLength: z.number().nullable(),
  family: z.string().nullable(),
  parameterSize: z.string().nullable(),
  quantization: z.string().nullable(),
  format: z.string().nullable(),
  parameterCount: z.number().nullable(),
  template: z.string().nullable(),
  parameters: z.string().nullable(),
  system: z.string().nullable(),
  license: z.string().nullable(),
  modelfile: z.string().nullable(),
});
export type LlmModelDetails = z.infer<typeof llmModelDetailsSchema>;

// ---- Pulls ------------------------------------------------------------------------------

export const pullModelInputSchema = z.object({
  /** Which Ollama; the hub's own when omitted. */
  providerId: z.number().int().positive().optional(),
  model: z
    .string()
    .trim()
    .min(1, 'Name the model to pull, e.g. llama3.2:3b')
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, 'Model names look like llama3.2:3b or namespace/model:tag'),
});

export const PULL_STATUSES = ['running', 'success', 'error', 'cancelled'] as const;

export const pullLayerSchema = z.object({
  digest: z.string(),
  total: z.number(),
  completed: z.number(),
});

export const pullJobSchema = z.object({
  id: z.string(),
  providerId: z.number().int(),
  providerName: z.string(),
  model: z.string(),
  status: z.enum(PULL_STATUSES),
  /** Ollama's last status line: "pulling manifest", "pulling <digest>", "verifying sha256 digest"… */
  phase: z.string(),
  layers: z.array(pullLayerSchema),
  /** Bytes over every layer seen so far. */
  total: z.number(),
  completed: z.number(),
  error: z.string().nullable(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type PullJob = z.infer<typeof pullJobSchema>;
export const pullJobListSchema = z.object({ pulls: z.array(pullJobSchema) });

/** The live topic of pull progress (admins only): each event is the whole job list. */
export const LLM_PULLS_TOPIC = 'llm.pulls';

// ---- Chat -------------------------------------------------------------------------------

export const LLM_TASKS = ['chat', 'pipeline', 'summarise'] as const;
export const llmTaskSchema = z.enum(LLM_TASKS);
export type LlmTask = z.infer<typeof llmTaskSchema>;

export const chatRoleSchema = z.enum(['system', 'user', 'assistant']);
export const chatMessageInputSchema = z.object({
  role: chatRoleSchema,
  content: z.string().max(100_000),
});
export type ChatMessageInput = z.infer<typeof chatMessageInputSchema>;

export const chatInputSchema = z.object({
  /** The model to answer; when omitted, the router's rule for the task chooses. */
  model: z.string().trim().min(1).max(200).optional(),
  messages: z
    .array(chatMessageInputSchema)
    .min(1, 'Send at least one message')
    .max(200)
    .refine((m) => m.at(-1)?.role === 'user', 'The last message must be from the user'),
  /** Ask this provider only (still falling back per the router's rule when it is down). */
  provider: z.number().int().positive().optional(),
  task: llmTaskSchema.default('chat'),
  /** Continue a saved conversation; a new one is started without it. */
  conversationId: z.number().int().positive().optional(),
});
export type ChatInput = z.input<typeof chatInputSchema>;

/** The provider's own counters for one answer. */
export const chatCountersSchema = z.object({
  promptTokens: z.number().nullable(),
  completionTokens: z.number().nullable(),
  /** Tokens per second of generation as the provider measured it (Ollama: eval_count / eval_duration). */
  tokensPerSecond: z.number().nullable(),
  totalDurationMs: z.number().nullable(),
  loadDurationMs: z.number().nullable(),
  doneReason: z.string().nullable(),
});
export type ChatCounters = z.infer<typeof chatCountersSchema>;

/**
 * The chat answer is a server-sent event stream (`text/event-stream`); each event's name is the
 * `type` below and its data is the JSON object. It ends after `done` or `error`. A chat waiting
 * in the cloud queue starts with `queued` events, and may then end with `error` alone.
 */
export const chatStreamEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('meta'),
    /** The saved conversation; null for answers that are not kept (pipeline tasks). */
    conversationId: z.number().int().nullable(),
    providerId: z.number().int(),
    providerName: z.string(),
    model: z.string(),
    /** Providers tried first that were down or too slow, in order. */
    fellBackFrom: z.array(z.object({ providerName: z.string(), model: z.string(), reason: z.string() })),
    /** The fleet node whose Ollama answers (the hub's own Ollama and the fleet's); null for other providers. */
    node: z.string().nullable().optional(),
  }),
  /**
   * Before `meta`, on plans without parallel processing: the chat waits for the hub's one cloud
   * request at a time; `position` 1 is next. Sent again as it moves up.
   */
  z.object({ type: z.literal('queued'), position: z.number().int().positive() }),
  z.object({ type: z.literal('delta'), content: z.string() }),
  z.object({
    type: z.literal('done'),
    messageId: z.number().int().nullable(),
    counters: chatCountersSchema,
  }),
  z.object({ type: z.literal('error'), message: z.string(), status: z.number().int() }),
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;

export const MESSAGE_STATUSES = ['complete', 'stopped', 'error'] as const;

export const chatMessageSchema = z.object({
  id: z.number().int(),
  role: chatRoleSchema,
  content: z.string(),
  model: z.string().nullable(),
  providerName: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  promptTokens: z.number().nullable(),
  completionTokens: z.number().nullable(),
  tokensPerSecond: z.number().nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const conversationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  model: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationListSchema = z.object({ conversations: z.array(conversationSchema) });
export const conversationDetailSchema = z.object({
  conversation: conversationSchema,
  messages: z.array(chatMessageSchema),
});
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;

// ---- Router -----------------------------------------------------------------------------

export const routerTargetSchema = z.object({
  providerId: z.number().int().positive(),
  model: z.string().trim().min(1).max(200),
});
export type RouterTarget = z.infer<typeof routerTargetSchema>;

/**
 * failover: the first target that answers; spread: targets with the same model share the load
 * (the one with the fewest chats streaming goes first), the others are fallbacks.
 */
export const ROUTER_STRATEGIES = ['failover', 'spread'] as const;

export const DEFAULT_ROUTER_TIMEOUT_MS = 30_000;

export const routerRuleInputSchema = z.object({
  targets: z.array(routerTargetSchema).min(1, 'Add at least one provider and model').max(10),
  strategy: z.enum(ROUTER_STRATEGIES).default('failover'),
  /** A provider that has not started answering within this long counts as down and the next target is tried. */
  timeoutMs: z.number().int().min(100).max(600_000).default(DEFAULT_ROUTER_TIMEOUT_MS),
  enabled: z.boolean().default(true),
});
export type RouterRuleInput = z.input<typeof routerRuleInputSchema>;

export const routerRuleSchema = z.object({
  task: llmTaskSchema,
  targets: z.array(routerTargetSchema),
  strategy: z.enum(ROUTER_STRATEGIES),
  timeoutMs: z.number().int(),
  enabled: z.boolean(),
  updatedAt: z.string(),
});
export type RouterRule = z.infer<typeof routerRuleSchema>;
export const routerStateSchema = z.object({
  rules: z.array(routerRuleSchema),
  providers: z.array(llmProviderHealthEntrySchema),
});
export type RouterState = z.infer<typeof routerStateSchema>;

// ---- Usage ------------------------------------------------------------------------------

export const usageQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});

export const usageRowSchema = z.object({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  userId: z.number().int(),
  userName: z.string().nullable(),
  model: z.string(),
  providerName: z.string(),
  /** The fleet node whose Ollama answered; null for other providers and for rows from before issue 24. */
  node: z.string().nullable(),
  messages: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});
export type UsageRow = z.infer<typeof usageRowSchema>;
export const usageNodeTotalSchema = z.object({
  node: z.string().nullable(),
  messages: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});
export type UsageNodeTotal = z.infer<typeof usageNodeTotalSchema>;
export const usageReportSchema = z.object({
  since: z.string(),
  /** Admins see every user's use; others see their own. */
  scope: z.enum(['all', 'own']),
  rows: z.array(usageRowSchema),
  /** The rows' totals per node that answered, most messages first. */
  nodes: z.array(usageNodeTotalSchema),
});

// ---- The LLM across the fleet (issue 24) --------------------------------------------------

/**
 * One Ollama the router sends the local provider's chats to: the hub's own (OLLAMA_URL) and every
 * fleet node running an Ollama service with a host-mode published port. Admins only.
 */
export const llmEndpointSchema = z.object({
  id: z.string(),
  /** The node's hostname (the hub's own Ollama: this hub's). */
  node: z.string(),
  url: z.string(),
  /** False while the endpoint is backing off after a failure. */
  healthy: z.boolean(),
  /** Chats streaming through it now. */
  outstanding: z.number().int(),
  lastError: z.string().nullable(),
  /** When a failed endpoint is tried again (ISO time); null when healthy. */
  retryAt: z.string().nullable(),
  /** The models its /api/tags listed; null when it could not be read. */
  models: z.array(z.string()).nullable(),
});
export type LlmEndpoint = z.infer<typeof llmEndpointSchema>;
export const llmEndpointListSchema = z.object({ endpoints: z.array(llmEndpointSchema) });
export type LlmEndpointList = z.infer<typeof llmEndpointListSchema>;
export type UsageReport = z.infer<typeof usageReportSchema>;

// ---- Tokenizer --------------------------------------------------------------------------

export const TOKENIZER_ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const;
export const TOKENIZER_LABELS: Record<(typeof TOKENIZER_ENCODINGS)[number], string> = {
  o200k_base: 'o200k_base (GPT-4o, GPT-4.1, o-series)',
  cl100k_base: 'cl100k_base (GPT-4, GPT-3.5)',
  p50k_base: 'p50k_base (Codex, text-davinci-003)',
  r50k_base: 'r50k_base (GPT-3)',
};
export const MAX_TOKENIZE_CHARS = 20_000;

export const tokenizeInputSchema = z.object({
  text: z.string().max(MAX_TOKENIZE_CHARS, `At most ${MAX_TOKENIZE_CHARS} characters`),
  encoding: z.enum(TOKENIZER_ENCODINGS).default('o200k_base'),
});

export const tokenizeResultSchema = z.object({
  encoding: z.enum(TOKENIZER_ENCODINGS),
  tokens: z.array(z.object({ id: z.number().int(), text: z.string() })),
  characters: z.number().int(),
});
export type TokenizeResult = z.infer<typeof tokenizeResultSchema>;
