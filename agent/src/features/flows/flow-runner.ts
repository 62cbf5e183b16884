import {
  FLOW_SERVICES,
  type FlowRun,
  type FlowService,
  type Stage,
  type StageRun,
} from '../../contract/flows.js';
import { HttpError } from '../../lib/http-error.js';
import { matchesPattern } from './flow-pattern.js';
import { renderJsonTemplate, renderTemplate } from './flow-template.js';
import type { FlowPorts } from './flows.ports.js';

/** HTTP stage answers larger than this fail the stage; the run keeps at most the stored part. */
export const HTTP_STAGE_MAX_RESPONSE_BYTES = 1024 * 1024;
const HTTP_STAGE_STORED_BODY_CHARS = 64 * 1024;
/** Condition values longer than this are compared by their start only (keeps regexes cheap). */
const CONDITION_MAX_CHARS = 10_000;

export const SPEECH_NOT_CONFIGURED = 'Speech services are not configured';

export interface RunOwner {
  id: number;
  role: 'user' | 'admin' | 'superadmin';
}

export interface RunState {
  /** The clip a voice run carries; the VAD stage replaces it with its trimmed version. */
  audio: Buffer | null;
  /** What a TTS stage said, kept with the run. */
  speech: Buffer | null;
  transcript: string | null;
}

export interface StageOutcome {
  input: unknown;
  output: unknown;
  /** A condition that did not hold: stop the run, or jump ahead to this stage. */
  next?: { stop: true } | { goto: string };
}

export interface StageEnv {
  ports: FlowPorts;
  owner: RunOwner;
  /** What started the run (a voice command, the API, a schedule…). */
  trigger: FlowRun['trigger'];
  /** Secret header values of this flow: `<stageId>\n<lower-case header name>` → value. */
  secrets: Map<string, string>;
  state: RunState;
  /** Shows what a running stage is doing before it ends (e.g. waiting in the cloud queue). */
  progress?: (output: unknown) => void;
}

export const secretKey = (stageId: string, header: string) => `${stageId}\n${header.toLowerCase()}`;

/**
 * A stage that fails because a service of the hub is missing or down says which service, and the
 * console page that sets it up (issue 21: a template's first run on a fresh hub is not a dead end).
 * Upstream failures (502-504) and "not configured" (503) get the hint; the stage's own input errors
 * do not, except an LLM stage without any model (400 from the router), whose fix is the same.
 */
function withFix(service: FlowService, alsoFor: readonly number[] = []) {
  return (error: unknown): never => {
    throw fixHint(service, error, alsoFor);
  };
}

function fixHint(service: FlowService, error: unknown, alsoFor: readonly number[] = []): unknown {
  if (error instanceof HttpError && (error.status >= 502 || alsoFor.includes(error.status))) {
    const message = `${error.message.replace(/\.$/, '')}. Needs ${service.label}: set it up at ${service.href}`;
    return new HttpError(error.status, message, error.details, error.headers);
  }
  return error;
}

function needAudio(state: RunState): Buffer {
  if (!state.audio) {
    throw new HttpError(400, 'This stage needs a voice clip: start the flow with an audio/wav body');
  }
  return state.audio;
}

function needSpeech(ports: FlowPorts) {
  if (!ports.speech) throw new HttpError(503, SPEECH_NOT_CONFIGURED);
  return ports.speech;
}

function compare(operator: string, value: string, compareTo: string, ignoreCase: boolean): boolean {
  const a = ignoreCase ? value.toLowerCase() : value;
  const b = ignoreCase ? compareTo.toLowerCase() : compareTo;
  switch (operator) {
    case 'equals':
      return a.trim() === b.trim();
    case 'not_equals':
      return a.trim() !== b.trim();
    case 'contains':
      return a.includes(b);
    case 'not_contains':
      return !a.includes(b);
    case 'matches':
      // Linear-time engine: a member's pattern cannot stall the agent (flow-pattern.ts).
      return matchesPattern(compareTo, value, ignoreCase);
    case 'is_empty':
      return value.trim() === '';
    case 'not_empty':
      return value.trim() !== '';
    default:
      throw new HttpError(400, `Unknown operator ${operator}`);
  }
}

function parseBody(body: string, contentType: string | undefined): unknown {
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(body);
    } catch {
      // not JSON after all: keep the text
    }
  }
  return body.length > HTTP_STAGE_STORED_BODY_CHARS
    ? `${body.slice(0, HTTP_STAGE_STORED_BODY_CHARS)}…`
    : body;
}

/** Runs one stage against the run's context ({ trigger, stages, run }). Throws to fail the stage. */
export async function executeStage(stage: Stage, context: unknown, env: StageEnv): Promise<StageOutcome> {
  const { ports, state } = env;
  const render = (template: string | undefined) =>
    template === undefined ? undefined : renderTemplate(template, context);
  switch (stage.kind) {
    case 'vad': {
      const clip = needAudio(state);
      const result = await needSpeech(ports).detectSpeech(clip);
      const output = { speech: result.speech, speechMs: result.speechMs, durationMs: result.durationMs };
      if (!result.speech || result.speechMs < stage.config.minSpeechMs) {
        throw new HttpError(
          422,
          `No speech in the clip (${result.speechMs} ms of speech in ${result.durationMs} ms)`,
        );
      }
      state.audio = result.wav;
      return { input: { bytes: clip.length }, output };
    }
    case 'stt': {
      const clip = needAudio(state);
      const result = await Promise.resolve()
        .then(() =>
          needSpeech(ports).transcribe(clip, {
            engine: stage.config.engine || undefined,
            language: stage.config.language || undefined,
          }),
        )
        .catch(withFix(FLOW_SERVICES.speech, [409]));
      state.transcript = result.text;
      return { input: { bytes: clip.length, ...stage.config }, output: result };
    }
    case 'tts': {
      const text = render(stage.config.text) ?? '';
      if (!text.trim()) throw new HttpError(400, 'Nothing to say: the text is empty');
      const result = await needSpeech(ports).synthesize(text, { voice: stage.config.voice || undefined });
      state.speech = result.wav;
      return {
        input: { text, voice: stage.config.voice },
        output: { engine: result.engine, ms: result.ms, bytes: result.wav.length },
      };
    }
    case 'llm': {
      if (!ports.llm)
        throw fixHint(FLOW_SERVICES.llm, new HttpError(503, 'The language model is not available'));
      const llm = ports.llm;
      const prompt = render(stage.config.prompt) ?? '';
      const system = render(stage.config.system) || undefined;
      const model = stage.config.model || undefined;
      const task = stage.config.task;
      const result = await llm
        .complete(prompt, {
          model,
          system,
          userId: env.owner.id,
          task,
          onQueued: (position) => env.progress?.({ waiting: { position } }),
        })
        .catch((error) => {
          // The router needs a model or its rule for the task; say where each is set.
          if (!model && error instanceof HttpError && error.status === 400) {
            throw new HttpError(
              400,
              `${error.message}: name a model in this stage, or set the router's ${task} rule`,
            );
          }
          throw error;
        })
        .catch(withFix(FLOW_SERVICES.llm, model ? [] : [400]));
      return { input: { prompt, system, model: stage.config.model, task }, output: result };
    }
    case 'ha_call': {
      if (!ports.homeAssistant) {
        throw fixHint(FLOW_SERVICES.homeAssistant, new HttpError(503, 'Home Assistant is not available'));
      }
      const homeAssistant = ports.homeAssistant;
      const entityIds = (render(stage.config.entityId) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      let data: Record<string, unknown> = {};
      if (stage.config.data?.trim()) {
        const text = renderJsonTemplate(stage.config.data, context);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new HttpError(400, 'The service data is not valid JSON');
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw new HttpError(400, 'The service data must be a JSON object');
        }
        data = parsed as Record<string, unknown>;
      }
      const input = { domain: stage.config.domain, service: stage.config.service, entityIds, data };
      const result = await homeAssistant
        .callService(
          env.owner.role,
          stage.config.domain,
          stage.config.service,
          {
            entity_id: entityIds.length ? entityIds : undefined,
            service_data: data,
          },
          { trigger: env.trigger },
        )
        .catch(withFix(FLOW_SERVICES.homeAssistant));
      return { input, output: result };
    }
    case 'http_request': {
      const url = render(stage.config.url) ?? '';
      const headers: Record<string, string> = {};
      for (const header of stage.config.headers) {
        headers[header.name] = header.secret
          ? (env.secrets.get(secretKey(stage.id, header.name)) ?? '')
          : renderTemplate(header.value, context);
      }
      const body = render(stage.config.body);
      const result = await ports.http.request({
        method: stage.config.method,
        url,
        headers,
        body,
        timeoutMs: stage.config.timeoutMs,
        maxResponseBytes: HTTP_STAGE_MAX_RESPONSE_BYTES,
      });
      // The run record shows which headers went out, never a secret's value.
      const shownHeaders = Object.fromEntries(
        stage.config.headers.map((h) => [h.name, h.secret ? '••••' : (headers[h.name] ?? '')]),
      );
      const input = { method: stage.config.method, url, headers: shownHeaders, body };
      const output = {
        status: result.status,
        body: parseBody(result.body, result.headers['content-type']),
        ms: result.ms,
      };
      if (result.status >= 400) {
        throw Object.assign(new HttpError(502, `${new URL(url).host} answered ${result.status}`), {
          input,
          output,
        });
      }
      return { input, output };
    }
    case 'notify': {
      if (!ports.notify) throw new HttpError(503, 'Notifications are not available');
      const title = (render(stage.config.title) ?? '').trim().slice(0, 200) || stage.name;
      const body = (render(stage.config.body) ?? '').trim().slice(0, 2000);
      const result = await ports.notify.notify(env.owner.id, { title, body, severity: stage.config.level });
      return { input: { title, body, level: stage.config.level }, output: result };
    }
    case 'condition': {
      const value = (render(stage.config.value) ?? '').slice(0, CONDITION_MAX_CHARS);
      const compareTo = (render(stage.config.compareTo) ?? '').slice(0, CONDITION_MAX_CHARS);
      const passed = compare(stage.config.operator, value, compareTo, stage.config.ignoreCase);
      const otherwise = stage.config.otherwise;
      return {
        input: { value, operator: stage.config.operator, compareTo },
        output: { passed },
        next: passed ? undefined : otherwise.action === 'stop' ? { stop: true } : { goto: otherwise.stageId },
      };
    }
  }
}

export function pendingStage(stage: Stage): StageRun {
  return {
    stageId: stage.id,
    kind: stage.kind,
    name: stage.name,
    status: 'pending',
    input: null,
    output: null,
    error: null,
    startedAt: null,
    durationMs: null,
  };
}
