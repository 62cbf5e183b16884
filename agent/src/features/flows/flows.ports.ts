import type { FlowRun } from '../../contract/flows.js';
/**
 * What the flow runner needs from the outside world. app.ts passes implementations from other features
 * (features never import each other), so the runner stays testable and the stage kinds stay decoupled.
 */

export interface SpeechPort {
  /** VAD on a WAV clip: trims silence; speech=false when the clip holds none. */
  detectSpeech(wav: Buffer): Promise<{ speech: boolean; wav: Buffer; speechMs: number; durationMs: number }>;
  transcribe(
    wav: Buffer,
    opts: { engine?: string; language?: string },
  ): Promise<{ text: string; engine: string; model?: string; ms: number }>;
  synthesize(text: string, opts: { voice?: string }): Promise<{ wav: Buffer; engine: string; ms: number }>;
}

export interface LlmPort {
  /** One prompt, one answer; the LLM feature's router picks the model when none is given. */
  complete(
    prompt: string,
    opts: {
      model?: string;
      system?: string;
      userId: number;
      task?: 'pipeline' | 'summarise';
      /** On plans without parallel processing: the stage waits for the cloud; 1 = next. */
      onQueued?: (position: number) => void;
    },
  ): Promise<{ text: string; model: string; provider: string; ms: number }>;
}

export interface HomeAssistantPort {
  /** Called with the flow owner's role, so a flow can do no more than its owner may. */
  callService(
    role: 'user' | 'admin' | 'superadmin',
    domain: string,
    service: string,
    input: { entity_id?: string[]; service_data: Record<string, unknown> },
    /** What started the run: a spoken command (`voice`) is never held back by a plan limit. */
    run?: { trigger: FlowRun['trigger'] },
  ): Promise<{ entityIds: string[]; contextId: string | null }>;
}

export interface NotifyPort {
  notify(
    userId: number,
    input: { title: string; body: string; severity: 'info' | 'success' | 'warning' | 'error' },
  ): Promise<{ id: number }>;
}

export interface HttpRequestPort {
  request(input: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    timeoutMs: number;
    maxResponseBytes: number;
  }): Promise<{ status: number; headers: Record<string, string>; body: string; ms: number }>;
}

export interface FlowPorts {
  speech?: SpeechPort;
  llm?: LlmPort;
  homeAssistant?: HomeAssistantPort;
  notify?: NotifyPort;
  http: HttpRequestPort;
}
