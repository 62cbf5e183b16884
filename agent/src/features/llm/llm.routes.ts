import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import {
  chatInputSchema,
  createLlmProviderInputSchema,
  llmTaskSchema,
  modelRefQuerySchema,
  pullModelInputSchema,
  routerRuleInputSchema,
  tokenizeInputSchema,
  updateLlmProviderInputSchema,
  usageQuerySchema,
  type ChatMessage,
  type Conversation,
} from '../../contract/llm.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { ChatService, ChatSession } from './chat.service.js';
import type { EndpointPool } from './endpoints.service.js';
import type { LlmRepository } from './llm.repository.js';
import type { LlmConversationRow, LlmMessageRow } from './llm.table.js';
import type { LlmService } from './llm.service.js';
import type { AuditRecorder } from '../audit/index.js';
import type { ProvidersService } from './providers.service.js';
import type { PullsService } from './pulls.service.js';
import type { TokenizeService } from './tokenize.service.js';

const idParam = z.object({ id: z.coerce.number().int().positive() });
const pullIdParam = z.object({ id: z.uuid() });
const taskParam = z.object({ task: llmTaskSchema });

const toConversation = (c: LlmConversationRow): Conversation => ({
  id: c.id,
  title: c.title,
  model: c.model,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

const toMessage = (m: LlmMessageRow): ChatMessage => ({
  id: m.id,
  role: m.role,
  content: m.content,
  model: m.model,
  providerName: m.providerName,
  status: m.status,
  promptTokens: m.promptTokens,
  completionTokens: m.completionTokens,
  tokensPerSecond: m.tokensPerSecond,
  createdAt: m.createdAt.toISOString(),
});

/** Mounted at /api/llm. Admins manage providers, models, pulls and the router; everyone chats. */
export function llmRoutes(deps: {
  providers: ProvidersService;
  llm: LlmService;
  chat: ChatService;
  pulls: PullsService;
  tokenizer: TokenizeService;
  repo: LlmRepository;
  audit?: AuditRecorder;
  endpoints: EndpointPool;
}) {
  /** A provider's API key set or removed: the setting's name only, never the key. */
  const keyChanged = (provider: { id: number; name: string }, apiKey: string | null | undefined) => {
    if (apiKey === undefined) return;
    deps.audit?.record({
      type: 'settings_secret_changed',
      target: `llm.providers.${provider.name}.api_key`,
      details: { providerId: provider.id, action: apiKey === null ? 'removed' : 'set' },
    });
  };
  return (
    new Hono<AppEnv>()
      // ---- providers (admin)
      .get('/providers', requireAdmin, (c) => c.json({ providers: deps.providers.list() }))
      .get('/providers/health', requireAdmin, async (c) =>
        c.json({ providers: await deps.providers.health() }),
      )
      .post('/providers', requireAdmin, validate('json', createLlmProviderInputSchema), (c) => {
        const input = c.req.valid('json');
        const provider = deps.providers.create(input);
        keyChanged(provider, input.apiKey);
        return c.json({ provider }, 201);
      })
      .patch(
        '/providers/:id',
        requireAdmin,
        validate('param', idParam),
        validate('json', updateLlmProviderInputSchema),
        (c) => {
          const input = c.req.valid('json');
          const provider = deps.providers.update(c.req.valid('param').id, input);
          keyChanged(provider, input.apiKey);
          return c.json({ provider });
        },
      )
      .delete('/providers/:id', requireAdmin, validate('param', idParam), (c) => {
        deps.providers.remove(c.req.valid('param').id);
        return c.json({ ok: true as const });
      })

      // ---- models
      .get('/models', requireUser, async (c) => c.json(await deps.llm.models()))
      .get('/models/show', requireAdmin, validate('query', modelRefQuerySchema), async (c) => {
        const { providerId, name } = c.req.valid('query');
        return c.json(await deps.llm.show(providerId, name));
      })
      .delete('/models', requireAdmin, validate('query', modelRefQuerySchema), async (c) => {
        const { providerId, name } = c.req.valid('query');
        await deps.llm.deleteModel(providerId, name);
        return c.json({ ok: true as const });
      })

      // ---- pulls (admin): jobs in the agent, followed live on llm.pulls
      .get('/pulls', requireAdmin, (c) => c.json({ pulls: deps.pulls.list() }))
      .post('/pulls', requireAdmin, validate('json', pullModelInputSchema), async (c) =>
        c.json({ pull: await deps.pulls.start(c.req.valid('json')) }, 202),
      )
      .delete('/pulls/:id', requireAdmin, validate('param', pullIdParam), async (c) =>
        c.json({ pull: await deps.pulls.cancel(c.req.valid('param').id) }),
      )

      // ---- chat: the answer streams as server-sent events
      .post('/chat', requireUser, validate('json', chatInputSchema), async (c) => {
        // The asker going away takes a chat out of the cloud queue, or stops its answer.
        const gone = new AbortController();
        c.req.raw.signal.addEventListener('abort', () => gone.abort(), { once: true });
        // Places in the cloud queue (plans without parallel processing), as they come.
        const places: number[] = [];
        let placed: (() => void) | null = null;
        const firstPlace = new Promise<'queued'>((resolve) => (placed = () => resolve('queued')));
        const starting = deps.chat.start(c.get('user'), c.req.valid('json'), {
          save: true,
          signal: gone.signal,
          onQueued: (position) => {
            places.push(position);
            placed?.();
          },
        });
        // Refused or started at once: the refusal is the JSON answer, as before any stream.
        const first = await Promise.race([starting, firstPlace]);
        c.header('X-Accel-Buffering', 'no');
        return streamSSE(c, async (stream) => {
          stream.onAbort(() => gone.abort());
          let session: ChatSession;
          if (first === 'queued') {
            // Waiting: say where, until the turn comes (or the chat is refused or given up).
            let settled = false;
            const done = starting.then(
              () => (settled = true),
              () => (settled = true),
            );
            try {
              while (!settled || places.length) {
                const position = places.shift();
                if (position !== undefined) {
                  await stream.writeSSE({
                    event: 'queued',
                    data: JSON.stringify({ type: 'queued', position }),
                  });
                  continue;
                }
                await Promise.race([done, new Promise<void>((r) => (placed = r))]);
              }
              session = await starting;
            } catch (err) {
              if (gone.signal.aborted) return;
              const http = err instanceof HttpError ? err : new HttpError(502, 'The chat could not start');
              await stream.writeSSE({
                event: 'error',
                data: JSON.stringify({ type: 'error', message: http.message, status: http.status }),
              });
              return;
            }
          } else {
            session = first;
          }
          const stop = () => session.stop();
          // Gone while waiting: the answer is stopped at once, and still read out below so the
          // chat gives back its cloud turn (a queue never waits on a chat nobody reads).
          if (gone.signal.aborted) stop();
          else gone.signal.addEventListener('abort', stop, { once: true });
          try {
            for await (const event of session.events()) {
              await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
            }
          } catch {
            // The browser went away mid-answer: stop the provider; what came so far is kept.
            session.stop();
          }
        });
      })
      .get('/conversations', requireUser, (c) =>
        c.json({ conversations: deps.repo.conversations(c.get('user').id).map(toConversation) }),
      )
      .get('/conversations/:id', requireUser, validate('param', idParam), (c) => {
        const conversation = deps.repo.conversation(c.get('user').id, c.req.valid('param').id);
        if (!conversation) throw notFound('No such conversation');
        return c.json({
          conversation: toConversation(conversation),
          messages: deps.repo.messages(conversation.id).map(toMessage),
        });
      })
      .delete('/conversations/:id', requireUser, validate('param', idParam), (c) => {
        if (!deps.repo.deleteConversation(c.get('user').id, c.req.valid('param').id)) {
          throw notFound('No such conversation');
        }
        return c.json({ ok: true as const });
      })

      // ---- router (admin)
      .get('/router', requireAdmin, async (c) => c.json(await deps.llm.router()))
      .put(
        '/router/rules/:task',
        requireAdmin,
        validate('param', taskParam),
        validate('json', routerRuleInputSchema),
        (c) => c.json({ rule: deps.llm.saveRule(c.req.valid('param').task, c.req.valid('json')) }),
      )
      .delete('/router/rules/:task', requireAdmin, validate('param', taskParam), (c) => {
        deps.llm.deleteRule(c.req.valid('param').task);
        return c.json({ ok: true as const });
      })
      // The built-in provider's Ollama endpoints: this hub's and the fleet nodes'.
      .get('/endpoints', requireAdmin, async (c) => c.json({ endpoints: await deps.endpoints.snapshot() }))

      // ---- usage: admins see everyone's, others their own
      .get('/usage', requireUser, validate('query', usageQuerySchema), (c) => {
        const user = c.get('user');
        const isAdmin = user.role === 'admin' || user.role === 'superadmin';
        return c.json(deps.llm.usage(c.req.valid('query').days, { id: user.id, isAdmin }));
      })

      // ---- tokenizer
      .post('/tokenize', requireUser, validate('json', tokenizeInputSchema), async (c) => {
        const { text, encoding } = c.req.valid('json');
        return c.json(await deps.tokenizer.tokenize(text, encoding));
      })
  );
}
