import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Bot, Gauge, MessageSquarePlus, MessagesSquare, Send, Square, Trash2, User } from 'lucide-react';
import type { LlmModelInfo } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import {
  conversationQueryOptions,
  conversationsQueryOptions,
  modelsQueryOptions,
  useDeleteConversation,
} from '@/data/llm';
import {
  applyEvent,
  failTurn,
  formatTokensPerSecond,
  fromSaved,
  history,
  startTurn,
  stopTurn,
  type ChatEntry,
} from '../chat-state';
import { streamChat } from '@/data/llm';
import { ConfirmButton } from '@/components/ui/confirm';
import { Markdown } from './markdown';
import { EmptyState, LoadError, RefreshError, RowsSkeleton } from './section';

/** One choice per model name; the router picks among the providers that have it. */
interface ModelChoice {
  name: string;
  providers: string[];
  modelClass: 'local' | 'cloud';
  allowed: boolean;
  loaded: boolean;
}

function modelChoices(models: LlmModelInfo[], kinds?: 'ollama'): ModelChoice[] {
  const byName = new Map<string, ModelChoice>();
  for (const m of models) {
    if (kinds && m.providerKind !== kinds) continue;
    const choice = byName.get(m.name);
    if (choice) {
      choice.providers.push(m.providerName);
      choice.allowed ||= m.allowed;
      choice.loaded ||= m.loaded;
    } else {
      byName.set(m.name, {
        name: m.name,
        providers: [m.providerName],
        modelClass: m.modelClass,
        allowed: m.allowed,
        loaded: m.loaded,
      });
    }
  }
  return [...byName.values()].sort(
    (a, b) => Number(b.loaded) - Number(a.loaded) || a.name.localeCompare(b.name),
  );
}

/**
 * Chat with a model: saved conversations on the side, the answer streamed in as the model writes
 * it (markdown), a stop button, and the provider's tokens per second under each answer.
 * `ollamaOnly` limits the models to Ollama's (the /ollama screen).
 */
export function ChatPanel({ ollamaOnly = false }: { ollamaOnly?: boolean }) {
  const queryClient = useQueryClient();
  const models = useQuery(modelsQueryOptions());
  const conversations = useQuery(conversationsQueryOptions());
  const deleteConversation = useDeleteConversation();
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [conversationId, setConversationId] = useState<number | null>(null);
  const [chosenModel, setChosenModel] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const abortRef = useRef<AbortController | null>(null);
  const turnRef = useRef(0);
  const endRef = useRef<HTMLDivElement>(null);

  const choices = useMemo(
    () => modelChoices(models.data?.models ?? [], ollamaOnly ? 'ollama' : undefined),
    [models.data, ollamaOnly],
  );
  const firstAllowed = choices.find((c) => c.allowed)?.name ?? null;
  const model = chosenModel ?? firstAllowed;
  const streaming = entries.at(-1)?.status === 'streaming';
  const lastAnswer = [...entries].reverse().find((e) => e.role === 'assistant' && e.tokensPerSecond !== null);

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [entries]);

  // Leaving the screen stops an answer in progress (the agent keeps what came so far).
  useEffect(() => () => abortRef.current?.abort(), []);

  async function openConversation(id: number) {
    if (streaming) return;
    try {
      const detail = await queryClient.fetchQuery(conversationQueryOptions(id));
      setEntries(fromSaved(detail.messages));
      setConversationId(id);
      if (detail.conversation.model) setChosenModel(detail.conversation.model);
    } catch (error) {
      toast({
        title: 'Could not open the conversation',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  }

  function newChat() {
    abortRef.current?.abort();
    setEntries([]);
    setConversationId(null);
    setDraft('');
  }

  async function send(text: string) {
    if (!model || streaming || !text.trim()) return;
    const turn = ++turnRef.current;
    const messages = [...history(entries), { role: 'user' as const, content: text }];
    setEntries((e) => startTurn(e, text, turn));
    setDraft('');
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      await streamChat(
        { model, messages, conversationId: conversationId ?? undefined },
        (event) => {
          if (event.type === 'meta' && event.conversationId !== null) setConversationId(event.conversationId);
          setEntries((e) => applyEvent(e, event));
        },
        controller.signal,
      );
    } catch (error) {
      if (controller.signal.aborted) setEntries(stopTurn);
      else setEntries((e) => failTurn(e, errorMessage(error) ?? 'The model could not answer'));
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void send(draft);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send(draft);
    }
  }

  return (
    <div className="grid min-h-[32rem] gap-4 md:grid-cols-[15rem_1fr]">
      <nav aria-label="Conversations" className="flex min-w-0 flex-col gap-2 rounded-xl border bg-card p-3">
        <Button variant="outline" size="sm" onClick={newChat}>
          <MessageSquarePlus aria-hidden="true" />
          New chat
        </Button>
        <RefreshError what="your conversations" query={conversations} />
        {conversations.isPending ? (
          <RowsSkeleton rows={4} />
        ) : conversations.isLoadingError ? (
          <LoadError what="your conversations" query={conversations} />
        ) : conversations.data.length === 0 ? (
          <p className="p-2 text-sm text-muted-foreground">
            Your chats are saved here. Start one on the right.
          </p>
        ) : (
          <ul className="grid max-h-[28rem] gap-1 overflow-y-auto">
            {conversations.data.map((c) => (
              <li key={c.id} className="group flex items-center gap-1">
                <button
                  type="button"
                  onClick={() => void openConversation(c.id)}
                  aria-current={c.id === conversationId ? 'true' : undefined}
                  className={cn(
                    'min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                    c.id === conversationId && 'bg-accent font-medium',
                  )}
                >
                  {c.title}
                </button>
                <ConfirmButton
                  destructive
                  variant="ghost"
                  size="icon"
                  className="size-7 shrink-0 opacity-60 group-hover:opacity-100"
                  aria-label={`Delete the conversation “${c.title}”`}
                  question="Delete this conversation?"
                  description={`“${c.title}” and its messages are removed for good.`}
                  confirmLabel="Delete"
                  onConfirm={() => {
                    deleteConversation.mutate(c.id);
                    if (c.id === conversationId) newChat();
                  }}
                >
                  <Trash2 aria-hidden="true" className="size-3.5" />
                </ConfirmButton>
              </li>
            ))}
          </ul>
        )}
      </nav>

      <section aria-label="Chat" className="flex min-w-0 flex-col rounded-xl border bg-card">
        <div className="flex flex-wrap items-center gap-3 border-b p-3">
          <Label htmlFor="chat-model" className="shrink-0">
            Model
          </Label>
          <Select
            value={model ?? ''}
            onValueChange={setChosenModel}
            disabled={streaming || choices.length === 0}
          >
            <SelectTrigger id="chat-model" className="w-72 max-w-full" aria-label="Model">
              <SelectValue placeholder={models.isPending ? 'Loading models…' : 'No models yet'} />
            </SelectTrigger>
            <SelectContent>
              {(['local', 'cloud'] as const).map((cls) => {
                const group = choices.filter((c) => c.modelClass === cls);
                if (group.length === 0) return null;
                return (
                  <SelectGroup key={cls}>
                    <SelectLabel>{cls === 'local' ? 'On your hardware' : 'Cloud'}</SelectLabel>
                    {group.map((c) => (
                      <SelectItem key={c.name} value={c.name} disabled={!c.allowed}>
                        {c.name}
                        <span className="ml-2 text-xs text-muted-foreground">
                          {c.allowed ? c.providers.join(', ') : 'Pro plan'}
                          {c.loaded ? ' · loaded' : ''}
                        </span>
                      </SelectItem>
                    ))}
                  </SelectGroup>
                );
              })}
            </SelectContent>
          </Select>
          {lastAnswer?.tokensPerSecond != null ? (
            <Badge variant="secondary" className="gap-1" data-testid="tokens-per-second">
              <Gauge aria-hidden="true" className="size-3" />
              {formatTokensPerSecond(lastAnswer.tokensPerSecond)}
            </Badge>
          ) : null}
          {models.data?.unreachable.length ? (
            <span className="text-xs text-warning">
              Not answering: {models.data.unreachable.map((u) => u.name).join(', ')}
            </span>
          ) : null}
        </div>

        <div className="flex-1 overflow-y-auto p-4" aria-live="polite" aria-busy={streaming}>
          <RefreshError what="the models" query={models} className="mb-4" />
          {models.isLoadingError ? (
            <LoadError what="the models" query={models} />
          ) : entries.length === 0 ? (
            choices.length === 0 && !models.isPending ? (
              <EmptyState icon={Bot} title="No model to chat with yet">
                Pull a model in the Models tab (an admin can, e.g. <code>llama3.2:3b</code>) or add a
                provider.
              </EmptyState>
            ) : (
              <EmptyState icon={MessagesSquare} title="Ask anything">
                Answers stream in as the model writes them. Your chats are saved for you only.
              </EmptyState>
            )
          ) : (
            <ol className="grid gap-4">
              {entries.map((entry) => (
                <ChatBubble key={entry.key} entry={entry} />
              ))}
            </ol>
          )}
          <div ref={endRef} />
        </div>

        <form onSubmit={onSubmit} className="flex items-end gap-2 border-t p-3">
          <Textarea
            aria-label="Message"
            placeholder={
              model ? `Message ${model}… (Enter to send, Shift+Enter for a new line)` : 'Choose a model first'
            }
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            rows={2}
            className="min-h-[2.75rem] flex-1 resize-y"
            disabled={!model}
          />
          {streaming ? (
            <Button type="button" variant="destructive" onClick={() => abortRef.current?.abort()}>
              <Square aria-hidden="true" />
              Stop
            </Button>
          ) : (
            <Button type="submit" disabled={!model || !draft.trim()}>
              <Send aria-hidden="true" />
              Send
            </Button>
          )}
        </form>
      </section>
    </div>
  );
}

function ChatBubble({ entry }: { entry: ChatEntry }) {
  const mine = entry.role === 'user';
  const speed = formatTokensPerSecond(entry.tokensPerSecond);
  return (
    <li
      className={cn('flex gap-2', mine && 'flex-row-reverse')}
      data-role={entry.role}
      data-status={entry.status}
    >
      <span
        aria-hidden="true"
        className={cn(
          'grid size-7 shrink-0 place-items-center rounded-full',
          mine ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
        )}
      >
        {mine ? <User className="size-3.5" /> : <Bot className="size-3.5" />}
      </span>
      <div
        className={cn(
          'grid max-w-[85%] min-w-0 gap-1 rounded-xl px-3 py-2',
          mine ? 'bg-primary/10' : 'border bg-background',
        )}
      >
        <span className="sr-only">{mine ? 'You said' : 'The model answered'}</span>
        {mine ? (
          <p className="text-sm whitespace-pre-wrap">{entry.content}</p>
        ) : entry.content ? (
          <Markdown>{entry.content}</Markdown>
        ) : entry.status === 'streaming' && entry.queuePosition ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <Spinner label="Waiting in the queue" className="size-4" />
            Waiting: position {entry.queuePosition} in the queue for the cloud model (the Free plan answers
            one cloud request at a time).
          </p>
        ) : entry.status === 'streaming' ? (
          <Spinner label="Waiting for the model" className="size-4" />
        ) : null}
        {!mine ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            {entry.model ? (
              <span>
                {entry.model}
                {entry.providerName ? ` on ${entry.providerName}` : ''}
              </span>
            ) : null}
            {speed ? <span data-testid="answer-speed">{speed}</span> : null}
            {entry.status === 'stopped' ? <Badge variant="outline">Stopped</Badge> : null}
            {entry.fellBackFrom.length ? (
              <span title={entry.fellBackFrom.map((f) => `${f.providerName}: ${f.reason}`).join('\n')}>
                Fell back from {entry.fellBackFrom.map((f) => f.providerName).join(', ')}
              </span>
            ) : null}
          </div>
        ) : null}
        {entry.status === 'error' && entry.error ? (
          <p role="alert" className="text-sm text-destructive">
            {entry.error}
            {/Upgrade to Pro/.test(entry.error) ? (
              <>
                {' '}
                <Link href="/pricing" className="font-medium underline">
                  See the plans
                </Link>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
    </li>
  );
}
