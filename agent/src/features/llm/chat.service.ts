import {
  DEFAULT_ROUTER_TIMEOUT_MS,
  type ChatCounters,
  type ChatMessageInput,
  type ChatStreamEvent,
  type LlmTask,
} from '../../contract/llm.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { LlmRepository } from './llm.repository.js';
import { hubModels, type PlanGate } from './plan-gate.js';
import {
  UpstreamError,
  isFallbackWorthy,
  toHttpError,
  upstreamError,
  type ChatChunk,
  type ChatStream,
} from './provider-client.js';
import type { ProvidersService } from './providers.service.js';
import type { EndpointLease, EndpointPool } from './endpoints.service.js';
import { planRoute, type RouteProvider } from './router.js';

/** What the chat needs from the usage counter. */
export interface UsageRecorder {
  recordAnsweredMessage(
    userId: number,
    detail: {
      model: string;
      providerName: string;
      modelClass: 'local' | 'cloud';
      promptTokens: number | null;
      completionTokens: number | null;
      /** The fleet node whose Ollama answered; null for other providers. */
      node: string | null;
    },
  ): void;
}

export interface ChatStartOptions {
  save: boolean;
  /** The asker went away: a chat still waiting for its turn at the cloud leaves the queue. */
  signal?: AbortSignal;
  /** On plans without parallel processing: told the chat's place in the cloud queue (1 = next). */
  onQueued?: (position: number) => void;
}

export interface ChatRequest {
  model?: string;
  messages: ChatMessageInput[];
  provider?: number;
  task: LlmTask;
  conversationId?: number;
}

type MetaEvent = Extract<ChatStreamEvent, { type: 'meta' }>;

export interface ChatSession {
  meta: MetaEvent;
  /** `meta`, then delta events as the model produces them, then one `done` or `error`. */
  events(): AsyncGenerator<ChatStreamEvent>;
  /** The person pressed stop or went away: stop the provider and keep what came so far. */
  stop(): void;
}

const TITLE_MAX = 80;

function titleOf(messages: ChatMessageInput[]): string {
  const first = messages.find((m) => m.role === 'user')?.content.trim() ?? '';
  const line = first.split('\n')[0] ?? '';
  if (!line) return 'New chat';
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

/** Waits for the stream's next piece, giving up after `ms` without one. */
async function nextWithin(
  iterator: AsyncIterator<ChatChunk>,
  ms: number,
  providerName: string,
): Promise<IteratorResult<ChatChunk>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UpstreamError(`${providerName} sent nothing for ${ms} ms`, 'timeout')),
      Math.max(1, ms),
    );
  });
  try {
    return await Promise.race([iterator.next(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Chats with a model: plan limits, the router's choice of provider with fallback when one is
 * down or slow, the answer streamed piece by piece, then saved with the provider's counters and
 * counted toward the month's usage.
 */
export function createChatService(deps: {
  repo: LlmRepository;
  providers: ProvidersService;
  gate: PlanGate;
  usage: UsageRecorder;
  log: Logger;
  /** The hub's own Ollama and the fleet's: the built-in provider's chats go to one of them. */
  endpoints?: EndpointPool;
}) {
  const pool = deps.endpoints;
  const pooled = (row: { builtIn: boolean; kind: string }) => pool !== undefined && row.builtIn;

  async function routeProviders(request: ChatRequest): Promise<RouteProvider[]> {
    const rows = deps.providers.enabledRows();
    const needModels = request.model !== undefined && request.provider === undefined;
    let lists = needModels ? await deps.providers.models() : [];
    let fleetModels = needModels && pool ? await pool.models() : new Set<string>();
    // A model pulled a moment ago may not be in the short-lived cache yet.
    if (
      needModels &&
      !fleetModels.has(request.model!) &&
      !lists.some((l) => l.models?.some((m) => m.name === request.model))
    ) {
      [lists, fleetModels] = await Promise.all([
        deps.providers.models(true),
        pool ? pool.models({ fresh: true }) : fleetModels,
      ]);
    }
    // Read after the awaits above, so that planning and counting the chat in happen together.
    const loads = deps.providers.loads();
    const modelsById = new Map(
      lists.map((l) => {
        const names = l.models ? new Set(l.models.map((m) => m.name)) : null;
        // A model on any fleet node is the local provider's too.
        if (pooled(l.provider) && fleetModels.size > 0) {
          return [l.provider.id, new Set([...(names ?? []), ...fleetModels])] as const;
        }
        return [l.provider.id, names] as const;
      }),
    );
    return rows.map((row) => ({
      id: row.id,
      priority: row.priority,
      kind: row.kind,
      models: modelsById.get(row.id) ?? null,
      active: loads.get(row.id)?.active ?? 0,
      served: loads.get(row.id)?.served ?? 0,
    }));
  }

  /**
   * Opens a chat on the endpoints of the built-in provider: the least busy that has the model,
   * moving on to the next when one is down, failing or too slow (it rests a while), so a node
   * going away costs the person nothing while another can answer.
   */
  async function openOnEndpoints(
    pool: EndpointPool,
    req: { model: string; messages: ChatMessageInput[]; timeoutMs: number },
    providerName: string,
  ): Promise<{
    stream: ChatStream;
    iterator: AsyncIterator<ChatChunk>;
    first: IteratorResult<ChatChunk>;
    lease: EndpointLease;
  }> {
    const tried = new Set<string>();
    let lastErr: unknown = null;
    for (;;) {
      const lease = await pool.acquire(req.model, tried);
      if (!lease) throw lastErr ?? new UpstreamError('No Ollama endpoint can answer', 'unreachable');
      tried.add(lease.id);
      const started = performance.now();
      let stream: ChatStream | null = null;
      try {
        stream = await lease.client.chat(req);
        const iterator = stream[Symbol.asyncIterator]();
        const first = await nextWithin(iterator, req.timeoutMs - (performance.now() - started), providerName);
        lease.succeeded();
        return { stream, iterator, first, lease };
      } catch (err) {
        stream?.abort();
        lease.release();
        lastErr = err;
        const e = upstreamError(err);
        if (e?.kind === 'rejected' && e.status === 404) {
          // Its list was out of date; another node may have the model.
          lease.lacksModel();
          if (pool.hasUntried(req.model, tried)) continue;
          throw err;
        }
        if (!isFallbackWorthy(err)) throw err;
        lease.failed(e?.message ?? String(err));
        deps.log.warn(
          { node: lease.node, model: req.model, err: e },
          'llm: endpoint failed, trying the next',
        );
      }
    }
  }

  return {
    async start(
      user: { id: number },
      request: ChatRequest,
      opts: ChatStartOptions = { save: true },
    ): Promise<ChatSession> {
      if (request.provider !== undefined) {
        const row = deps.providers.row(request.provider);
        if (!row) throw notFound(`No LLM provider with id ${request.provider}`);
        if (!row.enabled) throw new HttpError(409, `${row.name} is disabled`);
      }
      let conversation =
        request.conversationId === undefined
          ? null
          : (deps.repo.conversation(user.id, request.conversationId) ?? null);
      if (request.conversationId !== undefined && !conversation) {
        throw notFound(`No conversation with id ${request.conversationId}`);
      }
      const gate = deps.gate;
      // What the chat holds while a cloud model answers: one of the month's cloud messages and
      // the turn at the cloud. Given back when the answer ends, however it ends.
      let holds: (() => void)[] = [];
      const release = () => {
        const held = holds;
        holds = [];
        held.forEach((r) => r());
      };
      try {
        const rule = deps.repo.rule(request.task) ?? null;
        const timeoutMs = rule?.enabled ? rule.timeoutMs : DEFAULT_ROUTER_TIMEOUT_MS;
        const plan = planRoute(
          { model: request.model, providerId: request.provider },
          await routeProviders(request),
          rule,
        );
        if (!plan.ok) throw new HttpError(400, plan.reason);

        const fellBackFrom: MetaEvent['fellBackFrom'] = [];
        let refusal: HttpError | null = null;
        let lastFailure: { err: unknown; providerName: string } | null = null;
        let opened: {
          stream: ChatStream;
          iterator: AsyncIterator<ChatChunk>;
          first: IteratorResult<ChatChunk>;
          providerId: number;
          providerName: string;
          model: string;
          modelClass: 'local' | 'cloud';
          /** The endpoint answering, for the built-in provider's chats. */
          lease: EndpointLease | null;
          node: string | null;
          end: (outcome: 'served' | 'failed') => void;
        } | null = null;

        let hub: ReturnType<typeof hubModels> | null = null;
        for (const [i, target] of plan.targets.entries()) {
          const row = deps.providers.row(target.providerId);
          if (!row?.enabled) continue;
          const modelClass = row.local ? 'local' : 'cloud';
          if (!gate.allowsClass(modelClass)) {
            refusal ??= gate.classRefusal(modelClass, target.model, row.name);
            continue;
          }
          if (modelClass === 'local') {
            // Models beyond the plan's maxModels are kept but read-only.
            hub ??= hubModels(gate, await deps.providers.models());
            if (!hub.allows(row, target.model)) {
              refusal ??= gate.modelRefusal(target.model, hub.count);
              continue;
            }
          } else {
            // Only cloud answers count toward the month's messages; a refusal lets a local target answer.
            try {
              holds.push(gate.reserveCloudMessage().release);
            } catch (err) {
              if (!(err instanceof HttpError)) throw err;
              refusal ??= err;
              continue;
            }
            try {
              holds.push(await gate.cloudTurn({ signal: opts.signal, onQueued: opts.onQueued }));
            } catch (err) {
              release();
              if (!(err instanceof HttpError)) throw err;
              refusal ??= err;
              continue;
            }
          }
          const { client } = deps.providers.resolve(row);
          const end = deps.providers.begin(row.id);
          const started = performance.now();
          let stream: ChatStream | null = null;
          try {
            if (pool && pooled(row)) {
              const on = await openOnEndpoints(
                pool,
                { model: target.model, messages: request.messages, timeoutMs },
                row.name,
              );
              opened = {
                ...on,
                providerId: row.id,
                providerName: row.name,
                model: target.model,
                modelClass,
                node: on.lease.node,
                end: (outcome) => {
                  on.lease.release();
                  end(outcome);
                },
              };
              break;
            }
            stream = await client.chat({ model: target.model, messages: request.messages, timeoutMs });
            const iterator = stream[Symbol.asyncIterator]();
            const first = await nextWithin(iterator, timeoutMs - (performance.now() - started), row.name);
            opened = {
              stream,
              iterator,
              first,
              lease: null,
              providerId: row.id,
              providerName: row.name,
              model: target.model,
              modelClass,
              node: null,
              end,
            };
            break;
          } catch (err) {
            stream?.abort();
            end('failed');
            release();
            const isLast = i === plan.targets.length - 1;
            if (!isFallbackWorthy(err) || isLast) {
              if (!isFallbackWorthy(err)) throw toHttpError(err, row.name);
              lastFailure = { err, providerName: row.name };
              break;
            }
            lastFailure = { err, providerName: row.name };
            fellBackFrom.push({
              providerName: row.name,
              model: target.model,
              reason: upstreamError(err)?.message ?? String(err),
            });
            deps.log.warn(
              { provider: row.name, model: target.model, err: upstreamError(err) },
              'llm: falling back',
            );
          }
        }
        if (!opened) {
          if (lastFailure) throw toHttpError(lastFailure.err, lastFailure.providerName);
          throw refusal ?? new HttpError(502, 'No provider could answer');
        }

        const session = opened;
        const last = request.messages.at(-1)!;
        try {
          if (opts.save) {
            if (conversation) deps.repo.touchConversation(conversation.id, session.model);
            else
              conversation = deps.repo.createConversation(user.id, titleOf(request.messages), session.model);
            deps.repo.addMessage({
              conversationId: conversation.id,
              role: 'user',
              content: last.content,
              model: null,
              providerName: null,
              status: 'complete',
              promptTokens: null,
              completionTokens: null,
              tokensPerSecond: null,
            });
          }
        } catch (err) {
          // Saving failed after the provider started answering: stop it and give back its slot.
          session.stream.abort();
          session.end('failed');
          throw err;
        }
        const conversationId = opts.save ? conversation!.id : null;
        let stopped = false;

        const meta: MetaEvent = {
          type: 'meta',
          conversationId,
          providerId: session.providerId,
          providerName: session.providerName,
          model: session.model,
          fellBackFrom,
          node: session.node,
        };

        let finished = false;
        const finish = (
          status: 'complete' | 'stopped' | 'error',
          content: string,
          counters: ChatCounters | null,
        ): number | null => {
          finished = true;
          const answered = status === 'complete' || (status === 'stopped' && content.length > 0);
          if (answered) {
            deps.usage.recordAnsweredMessage(user.id, {
              model: session.model,
              providerName: session.providerName,
              modelClass: session.modelClass,
              promptTokens: counters?.promptTokens ?? null,
              completionTokens: counters?.completionTokens ?? null,
              node: session.node,
            });
          }
          session.end(status === 'error' ? 'failed' : 'served');
          release();
          if (!opts.save || conversationId === null) return null;
          return deps.repo.addMessage({
            conversationId,
            role: 'assistant',
            content,
            model: session.model,
            providerName: session.providerName,
            status,
            promptTokens: counters?.promptTokens ?? null,
            completionTokens: counters?.completionTokens ?? null,
            tokensPerSecond: counters?.tokensPerSecond ?? null,
          });
        };

        return {
          meta,
          stop() {
            stopped = true;
            session.stream.abort();
          },
          async *events() {
            let content = '';
            // Everything from here on is inside the try, so the finally below always settles the chat.
            let metaSent = false;
            let result = session.first;
            // A provider that goes quiet mid-answer for the rule's timeout is stalled: one timer,
            // pushed back by every chunk, stops it (cheaper than a race per chunk).
            // Time spent handing a chunk to a slow browser does not count: then it just re-arms.
            let stalled = false;
            let waiting = false;
            const watchdog = setTimeout(() => {
              if (!waiting) {
                watchdog.refresh();
                return;
              }
              stalled = true;
              session.stream.abort();
            }, timeoutMs);
            try {
              yield meta;
              metaSent = true;
              for (;;) {
                if (result.done) {
                  throw new UpstreamError(
                    `${session.providerName} closed the stream before the answer was complete`,
                    'bad_response',
                  );
                }
                const chunk = result.value;
                if (chunk.content) {
                  content += chunk.content;
                  yield { type: 'delta', content: chunk.content };
                }
                if (chunk.done) {
                  const messageId = finish('complete', content, chunk.counters);
                  yield { type: 'done', messageId, counters: chunk.counters };
                  return;
                }
                watchdog.refresh();
                waiting = true;
                result = await session.iterator.next();
                waiting = false;
              }
            } catch (caught) {
              const err = stalled
                ? new UpstreamError(`${session.providerName} sent nothing for ${timeoutMs} ms`, 'timeout')
                : caught;
              if (stopped) {
                finish('stopped', content, null);
                return;
              }
              session.stream.abort();
              // A node that broke an answer rests before the next chat is sent to it.
              if (isFallbackWorthy(err)) session.lease?.failed(upstreamError(err)?.message ?? String(err));
              finish('error', content, null);
              const http = toHttpError(err, session.providerName);
              yield {
                type: 'error',
                message: http.message,
                status: http instanceof HttpError ? http.status : 502,
              };
            } finally {
              clearTimeout(watchdog);
              // The browser went away while an event was being written: as good as a stop.
              if (!finished) {
                session.stream.abort();
                finish('stopped', metaSent ? content : '', null);
              }
            }
          },
        };
      } catch (err) {
        release();
        throw err;
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
