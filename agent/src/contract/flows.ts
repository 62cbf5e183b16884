import { z } from 'zod';

/**
 * FlowForge: a flow is a trigger and an ordered list of stages. The agent validates saved flows
 * with these schemas and the builder's forms validate with the same ones.
 */

// ---- Limits -----------------------------------------------------------------------------------

export const FLOW_MAX_STAGES = 30;
export const FLOW_TEMPLATE_MAX = 8000;
export const HTTP_STAGE_MAX_TIMEOUT_MS = 60_000;
export const HTTP_STAGE_DEFAULT_TIMEOUT_MS = 10_000;
/** A webhook test URL listens this long for one event after the builder asks it to. */
export const WEBHOOK_TEST_LISTEN_MS = 120_000;

export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'stopped'] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatusSchema>;

// ---- Stages -----------------------------------------------------------------------------------

export const STAGE_KINDS = [
  'vad',
  'stt',
  'llm',
  'ha_call',
  'http_request',
  'notify',
  'tts',
  'condition',
] as const;
export const stageKindSchema = z.enum(STAGE_KINDS);
export type StageKind = z.infer<typeof stageKindSchema>;

export const STAGE_KIND_LABELS: Record<StageKind, string> = {
  vad: 'Voice activity detection',
  stt: 'Speech to text',
  llm: 'Language model',
  ha_call: 'Home Assistant service call',
  http_request: 'HTTP request',
  notify: 'Notification',
  tts: 'Text to speech',
  condition: 'Condition',
};

const template = (what: string) =>
  z
    .string()
    .max(FLOW_TEMPLATE_MAX, `${what} may be at most ${FLOW_TEMPLATE_MAX} characters`)
    .describe('May use {{trigger.…}} and {{stages.<id>.…}}');

export const vadConfigSchema = z.object({
  /** Clips with less speech than this count as silent and stop the run. */
  minSpeechMs: z.number().int().min(0).max(10_000).default(200),
});

export const sttConfigSchema = z.object({
  engine: z.string().trim().max(100).optional(),
  language: z.string().trim().max(20).optional(),
});

export const llmConfigSchema = z.object({
  prompt: template('The prompt').min(1, 'Write a prompt'),
  system: template('The system prompt').optional(),
  /** Omit to let the LLM router's rule for this stage's task choose. */
  model: z.string().trim().max(200).optional(),
  /** Which of the router's rules picks the model when none is named (set under /llm-router). */
  task: z.enum(['pipeline', 'summarise']).default('pipeline'),
});

const slug = z
  .string()
  .trim()
  .regex(/^[a-z0-9_]+$/, 'Use lower-case letters, digits and underscores')
  .max(100);

export const haCallConfigSchema = z.object({
  domain: slug.min(1, 'Name the domain, e.g. light'),
  service: slug.min(1, 'Name the service, e.g. turn_on'),
  /** One entity or several separated by commas; templates allowed. */
  entityId: template('The entity').optional(),
  /** Service data as JSON text; templates allowed inside it. */
  data: template('The service data').optional(),
});

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const httpHeaderSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name the header')
    .max(200)
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid header name'),
  /** For a secret header: empty keeps the stored value. Never sent back by the agent. */
  value: z.string().max(4096).default(''),
  /** Secret values are encrypted at rest, never returned and never exported. */
  secret: z.boolean().default(false),
  /** Set by the agent: whether a secret header has a stored value. */
  hasValue: z.boolean().optional(),
});
export type HttpHeader = z.infer<typeof httpHeaderSchema>;

export const httpRequestConfigSchema = z.object({
  method: z.enum(HTTP_METHODS).default('POST'),
  url: template('The URL').min(1, 'Give the URL'),
  headers: z.array(httpHeaderSchema).max(20).default([]),
  body: template('The body').optional(),
  timeoutMs: z.number().int().min(100).max(HTTP_STAGE_MAX_TIMEOUT_MS).default(HTTP_STAGE_DEFAULT_TIMEOUT_MS),
});

export const notifyConfigSchema = z.object({
  title: template('The title').min(1, 'Give a title'),
  body: template('The body').optional(),
  level: z.enum(['info', 'success', 'warning', 'error']).default('info'),
});

export const ttsConfigSchema = z.object({
  text: template('The text').min(1, 'Give the text to speak'),
  voice: z.string().trim().max(100).optional(),
});

export const CONDITION_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'matches',
  'is_empty',
  'not_empty',
] as const;
export const CONDITION_OPERATOR_LABELS: Record<(typeof CONDITION_OPERATORS)[number], string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  contains: 'contains',
  not_contains: 'does not contain',
  matches: 'matches the regular expression',
  is_empty: 'is empty',
  not_empty: 'is not empty',
};

export const conditionConfigSchema = z.object({
  value: template('The value'),
  operator: z.enum(CONDITION_OPERATORS).default('contains'),
  compareTo: template('The value to compare with').default(''),
  ignoreCase: z.boolean().default(true),
  /** When the condition holds the next stage runs; otherwise the run stops here or jumps ahead. */
  otherwise: z
    .discriminatedUnion('action', [
      z.object({ action: z.literal('stop') }),
      z.object({ action: z.literal('goto'), stageId: z.string().min(1) }),
    ])
    .default({ action: 'stop' }),
});

export const stageIdSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]*$/, 'Start with a letter; use lower-case letters, digits and underscores')
  .max(40);

const stageBase = {
  id: stageIdSchema,
  name: z.string().trim().min(1, 'Name the stage').max(100),
};

export const stageSchema = z.discriminatedUnion('kind', [
  z.object({ ...stageBase, kind: z.literal('vad'), config: vadConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('stt'), config: sttConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('llm'), config: llmConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('ha_call'), config: haCallConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('http_request'), config: httpRequestConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('notify'), config: notifyConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('tts'), config: ttsConfigSchema }),
  z.object({ ...stageBase, kind: z.literal('condition'), config: conditionConfigSchema }),
]);
export type Stage = z.infer<typeof stageSchema>;
export type StageInput = z.input<typeof stageSchema>;

/** The config schema of each kind, for the builder's forms. */
export const stageConfigSchemas = {
  vad: vadConfigSchema,
  stt: sttConfigSchema,
  llm: llmConfigSchema,
  ha_call: haCallConfigSchema,
  http_request: httpRequestConfigSchema,
  notify: notifyConfigSchema,
  tts: ttsConfigSchema,
  condition: conditionConfigSchema,
} as const satisfies Record<StageKind, z.ZodType>;

// ---- Triggers ---------------------------------------------------------------------------------

export const TRIGGER_TYPES = ['webhook', 'schedule', 'api', 'voice'] as const;
export const TRIGGER_LABELS: Record<(typeof TRIGGER_TYPES)[number], string> = {
  webhook: 'Webhook',
  schedule: 'Schedule',
  api: 'API',
  voice: 'Voice',
};

export const cronExpressionSchema = z
  .string()
  .trim()
  .min(1, 'Give a cron expression')
  .max(120)
  .regex(/^[^\s]+(\s+[^\s]+){4,5}$/, 'A cron expression has five or six fields');

export const triggerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('webhook') }),
  z.object({
    type: z.literal('schedule'),
    cron: cronExpressionSchema,
    timezone: z.string().trim().min(1).max(64).default('UTC'),
  }),
  z.object({ type: z.literal('api') }),
  z.object({
    type: z.literal('voice'),
    /**
     * Satellites that may start this flow with their own device token
     * (POST /api/flows/:id/run?satellite=<id>, audio/wav); the console and API keys always may.
     */
    satellites: z.array(z.number().int().positive()).max(50).default([]),
  }),
]);
export type Trigger = z.infer<typeof triggerSchema>;

// ---- Flows ------------------------------------------------------------------------------------

/**
 * A named secret of a flow (a token, a password), used in any text field as {{secrets.NAME}}.
 * Encrypted at rest, never returned, never exported, and masked in run records.
 */
export const flowSecretSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Letters, digits and _, not starting with a digit'),
  /** Empty keeps the stored value. Never sent back by the agent. */
  value: z
    .string()
    .max(4096)
    .refine((v) => v === '' || v.length >= 4, 'A secret has at least 4 characters')
    .default(''),
  /** Set by the agent: whether the secret has a stored value. */
  hasValue: z.boolean().optional(),
});
export type FlowSecret = z.infer<typeof flowSecretSchema>;
/** How a template names a secret. */
export const SECRET_PLACEHOLDER = /\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export const FLOW_STATUSES = ['draft', 'active'] as const;
export const flowStatusSchema = z.enum(FLOW_STATUSES);

/** A flow's definition as saved, imported and exported. */
export const flowDefinitionSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the flow').max(100),
    description: z.string().trim().max(1000).default(''),
    trigger: triggerSchema,
    stages: z.array(stageSchema).max(FLOW_MAX_STAGES, `A flow may have at most ${FLOW_MAX_STAGES} stages`),
    /** Left out of an update: the stored secrets stay as they are. */
    secrets: z.array(flowSecretSchema).max(50, 'A flow may have at most 50 secrets').optional(),
  })
  .superRefine((flow, ctx) => {
    const names = (flow.secrets ?? []).map((s) => s.name);
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index) {
        ctx.addIssue({
          code: 'custom',
          path: ['secrets', index, 'name'],
          message: `Two secrets are called ${name}`,
        });
      }
    });
    const ids = flow.stages.map((s) => s.id);
    flow.stages.forEach((stage, index) => {
      if (ids.indexOf(stage.id) !== index) {
        ctx.addIssue({
          code: 'custom',
          path: ['stages', index, 'id'],
          message: `Two stages are called ${stage.id}`,
        });
      }
      if (stage.kind === 'condition' && stage.config.otherwise.action === 'goto') {
        const target = ids.indexOf(stage.config.otherwise.stageId);
        // Forward jumps only: a flow always ends.
        if (target <= index) {
          ctx.addIssue({
            code: 'custom',
            path: ['stages', index, 'config', 'otherwise', 'stageId'],
            message: 'A condition may only jump to a later stage',
          });
        }
      }
    });
  });
export type FlowDefinition = z.infer<typeof flowDefinitionSchema>;
export type FlowDefinitionInput = z.input<typeof flowDefinitionSchema>;

export const createFlowInputSchema = flowDefinitionSchema;
export const updateFlowInputSchema = flowDefinitionSchema;
export const setFlowStatusInputSchema = z.object({ status: flowStatusSchema });

/** The JSON file the builder exports and imports: the definition without any secret. */
export const flowExportSchema = z.object({
  format: z.literal('nexus-flow'),
  formatVersion: z.literal(1),
  flow: flowDefinitionSchema,
});
export type FlowExport = z.infer<typeof flowExportSchema>;

export const flowSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: flowStatusSchema,
  trigger: triggerSchema,
  stageKinds: z.array(stageKindSchema),
  version: z.number().int(),
  ownerId: z.number().int(),
  ownerName: z.string(),
  lastRun: z.object({ id: z.number().int(), status: runStatusSchema, startedAt: z.string() }).nullable(),
  updatedAt: z.string(),
});
export type FlowSummary = z.infer<typeof flowSummarySchema>;

export const flowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: flowStatusSchema,
  trigger: triggerSchema,
  stages: z.array(stageSchema),
  /** Names only, with hasValue: a value never leaves the agent. */
  secrets: z.array(flowSecretSchema),
  version: z.number().int(),
  ownerId: z.number().int(),
  ownerName: z.string(),
  /** Only for webhook flows, and only to their owner and admins. */
  webhook: z
    .object({
      productionPath: z.string(),
      testPath: z.string(),
      /** While set, the test path accepts one event until this time. */
      listeningUntil: z.string().nullable(),
    })
    .nullable(),
  /** Only for schedule flows: the next five times it runs (ISO), in order. */
  nextRuns: z.array(z.string()).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Flow = z.infer<typeof flowSchema>;

export const flowVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  name: z.string(),
  stageCount: z.number().int(),
  trigger: triggerSchema,
  createdAt: z.string(),
});
export type FlowVersion = z.infer<typeof flowVersionSchema>;

export const schedulePreviewQuerySchema = z.object({
  cron: cronExpressionSchema,
  timezone: z.string().trim().min(1).max(64).default('UTC'),
});
export const schedulePreviewSchema = z.object({ nextRuns: z.array(z.string()) });

// ---- Runs -------------------------------------------------------------------------------------

export const RUN_TRIGGERS = [
  'webhook',
  'webhook_test',
  'schedule',
  'api',
  'voice',
  'manual',
  'retry',
  'replay',
] as const;
export const runTriggerSchema = z.enum(RUN_TRIGGERS);
export type RunTrigger = z.infer<typeof runTriggerSchema>;
export const STAGE_RUN_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const;
export type StageRunStatus = (typeof STAGE_RUN_STATUSES)[number];

export const stageRunSchema = z.object({
  stageId: z.string(),
  kind: stageKindSchema,
  name: z.string(),
  status: z.enum(STAGE_RUN_STATUSES),
  input: z.unknown().nullable(),
  output: z.unknown().nullable(),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** Carried over from the run that was retried rather than run again. */
  reused: z.boolean().optional(),
});
export type StageRun = z.infer<typeof stageRunSchema>;

export const flowRunSchema = z.object({
  id: z.number().int(),
  flowId: z.number().int(),
  flowVersion: z.number().int(),
  trigger: runTriggerSchema,
  status: runStatusSchema,
  input: z.unknown(),
  error: z.string().nullable(),
  stages: z.array(stageRunSchema),
  /** Voice runs: the clip they were started with (GET /api/flows/runs/:id/audio). */
  hasClip: z.boolean(),
  hasSpeech: z.boolean(),
  transcript: z.string().nullable(),
  retryOf: z.number().int().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
});
export type FlowRun = z.infer<typeof flowRunSchema>;

export const runFlowInputSchema = z.object({
  /** What the first stage receives as {{trigger.…}}. */
  input: z.unknown().optional(),
});
export const runQuerySchema = z.object({
  /** Answer when the run has finished instead of at once. */
  wait: z.enum(['true', 'false']).optional(),
  /** A satellite's id: the run is started by that satellite, with its device token as the bearer. */
  satellite: z.coerce.number().int().positive().optional(),
});
export const runStartedSchema = z.object({ runId: z.number().int(), status: runStatusSchema });

/** Live topics (GET /api/live): a run's every change, and a flow's runs as they start and end. Owner and admins only. */
export const FLOWS_TOPIC = 'flows';
export const flowRunTopic = (runId: number) => `${FLOWS_TOPIC}.run.${runId}`;
export const flowRunsTopic = (flowId: number) => `${FLOWS_TOPIC}.${flowId}.runs`;

// ---- API keys ---------------------------------------------------------------------------------

export const API_KEY_PREFIX = 'nxf_';
export const createApiKeyInputSchema = z.object({
  name: z.string().trim().min(1, 'Name the key').max(100),
  flowIds: z.array(z.number().int().positive()).min(1, 'Choose at least one flow').max(100),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInputSchema>;
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters, to tell keys apart; the rest is never stored. */
  prefix: z.string(),
  flowIds: z.array(z.number().int()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
/** The answer to creating a key: the only time the key itself is shown. */
export const createdApiKeySchema = z.object({ apiKey: apiKeySchema, key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

// ---- Templates --------------------------------------------------------------------------------

/**
 * A service a flow's stage needs, and the console page that sets it up (issue 21: a template on a
 * fresh hub says what it needs, with the link, before and after a failed run).
 */
export const FLOW_SERVICES = {
  llm: { label: 'A language model (Ollama on the hub)', href: '/nexus-deploy?app=ollama' },
  speech: { label: 'Speech-to-text (Whisper on the hub)', href: '/nexus-deploy?app=wyoming-whisper' },
  homeAssistant: { label: 'Home Assistant', href: '/ha-connection-setup' },
} as const;
export type FlowService = (typeof FLOW_SERVICES)[keyof typeof FLOW_SERVICES];

export interface FlowTemplate {
  id: string;
  title: string;
  summary: string;
  /** What the template's stages need on the hub, each with the page that sets it up. */
  needs: readonly FlowService[];
  flow: FlowDefinitionInput;
}

export const FLOW_TEMPLATES: readonly FlowTemplate[] = [
  {
    id: 'voice-to-home-assistant',
    title: 'voice command → Home Assistant',
    summary: 'Trim the clip, transcribe it, let the model pick the light, then switch it in Home Assistant.',
    needs: [FLOW_SERVICES.speech, FLOW_SERVICES.llm, FLOW_SERVICES.homeAssistant],
    flow: {
      name: 'Voice command → Home Assistant',
      description: 'A spoken command turns a light on.',
      trigger: { type: 'voice' },
      stages: [
        { id: 'vad', name: 'Trim silence', kind: 'vad', config: { minSpeechMs: 200 } },
        { id: 'stt', name: 'Transcribe', kind: 'stt', config: {} },
        {
          id: 'intent',
          name: 'Pick the light',
          kind: 'llm',
          config: {
            system: 'Answer with a Home Assistant entity id only, e.g. light.kitchen.',
            prompt: 'Which light does this command mean? "{{stages.stt.text}}"',
          },
        },
        {
          id: 'switch',
          name: 'Turn it on',
          kind: 'ha_call',
          config: { domain: 'light', service: 'turn_on', entityId: '{{stages.intent.text}}' },
        },
      ],
    },
  },
  {
    id: 'morning-briefing',
    title: 'morning briefing on a schedule',
    summary: 'Every weekday at 7:00 the model writes a short briefing and you get it as a notification.',
    needs: [FLOW_SERVICES.llm],
    flow: {
      name: 'Morning briefing',
      description: 'A short briefing every weekday morning.',
      trigger: { type: 'schedule', cron: '0 7 * * 1-5', timezone: 'UTC' },
      stages: [
        {
          id: 'briefing',
          name: 'Write the briefing',
          kind: 'llm',
          config: { prompt: 'Write a two-sentence good-morning briefing for {{run.date}}.' },
        },
        {
          id: 'tell',
          name: 'Notify me',
          kind: 'notify',
          config: { title: 'Morning briefing', body: '{{stages.briefing.text}}', level: 'info' },
        },
      ],
    },
  },
  {
    id: 'webhook-summarise-notify',
    title: 'webhook → summarise → notify',
    summary:
      'Post any text to the webhook; the model summarises it and the summary arrives as a notification.',
    needs: [FLOW_SERVICES.llm],
    flow: {
      name: 'Webhook → summarise → notify',
      description: 'Summarises what is posted to the webhook.',
      trigger: { type: 'webhook' },
      stages: [
        {
          id: 'summary',
          name: 'Summarise',
          kind: 'llm',
          config: { prompt: 'Summarise in one sentence:\n\n{{trigger.text}}', task: 'summarise' },
        },
        {
          id: 'tell',
          name: 'Notify me',
          kind: 'notify',
          config: { title: 'New summary', body: '{{stages.summary.text}}', level: 'info' },
        },
      ],
    },
  },
];
