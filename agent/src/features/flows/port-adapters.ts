import { HttpError } from '../../lib/http-error.js';
import type { HomeAssistantPort, LlmPort } from './flows.ports.js';

/** The part of the LLM feature's chat service a flow needs, described by shape (features do not import each other). */
export interface ChatStarter {
  start(
    user: { id: number },
    request: {
      model?: string;
      messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
      task: 'pipeline' | 'summarise';
    },
    opts: { save: boolean; onQueued?: (position: number) => void },
  ): Promise<{
    meta: { model: string; providerName: string };
    events(): AsyncGenerator<{ type: string; content?: string; message?: string; status?: number }>;
  }>;
}

const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 422, 429, 502, 503, 504] as const;

/** An LLM stage is one chat turn through the router's rule for its task, not kept as a conversation. */
export function chatAsLlmPort(chat: ChatStarter): LlmPort {
  return {
    async complete(prompt, opts) {
      const started = performance.now();
      const messages: { role: 'system' | 'user'; content: string }[] = [];
      if (opts.system?.trim()) messages.push({ role: 'system', content: opts.system });
      messages.push({ role: 'user', content: prompt });
      const session = await chat.start(
        { id: opts.userId },
        { model: opts.model, messages, task: opts.task ?? 'pipeline' },
        { save: false, onQueued: opts.onQueued },
      );
      let text = '';
      for await (const event of session.events()) {
        if (event.type === 'delta') text += event.content ?? '';
        if (event.type === 'error') {
          const status = ERROR_STATUSES.find((s) => s === event.status) ?? 502;
          throw new HttpError(status, event.message ?? 'The model failed');
        }
      }
      return {
        text: text.trim(),
        model: session.meta.model,
        provider: session.meta.providerName,
        ms: Math.round(performance.now() - started),
      };
    },
  };
}

/** What a flow's Home Assistant stage asks the hub's plan (its homeAssistantEntities limit). */
export interface EntityAllowance {
  /** Throws the plan's refusal when the entities are beyond what automations may act on. */
  checkEntities(entityIds: string[]): void;
}

/**
 * A flow acting on Home Assistant within the plan's entity allowance. Only automations pass
 * here; people's own control from the device screens goes to the HA feature directly.
 */
export function planLimitedHomeAssistant(port: HomeAssistantPort, plan: EntityAllowance): HomeAssistantPort {
  return {
    async callService(role, domain, service, input, run) {
      // No limit ever stops the home's voice: a spoken command acts whatever the plan's allowance.
      if (run?.trigger !== 'voice') plan.checkEntities(input.entity_id ?? []);
      return port.callService(role, domain, service, input, run);
    },
  };
}
