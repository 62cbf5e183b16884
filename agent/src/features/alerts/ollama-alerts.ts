import { z } from 'zod';
import type { IncidentNotifier } from './incidents.js';

export const OLLAMA_INCIDENT_KEY = 'llm:ollama-unreachable';
/** Remembered once Ollama has answered: a hub that never had one is not told it is missing. */
export const OLLAMA_SEEN_SETTING = 'alerts.ollamaSeen';
/** Failed probes in a row before it counts as unreachable (one lost probe is not an outage). */
const FAILURES_TO_OPEN = 2;

/** One probe of the hub's Ollama; the poll interval is the caller's. */
export function createOllamaCheck(deps: {
  probe: () => Promise<unknown>;
  incidents: IncidentNotifier;
  settings: {
    get<T>(key: string, schema: z.ZodType<T>): T | undefined;
    set(key: string, value: unknown): void;
  };
  url: string;
}) {
  let failures = 0;
  let seen = deps.settings.get(OLLAMA_SEEN_SETTING, z.boolean()) ?? false;
  return async function check(): Promise<void> {
    try {
      await deps.probe();
    } catch (err) {
      failures++;
      if (!seen || failures < FAILURES_TO_OPEN) return;
      deps.incidents.open(OLLAMA_INCIDENT_KEY, {
        category: 'llm',
        level: 'error',
        title: 'Ollama is unreachable',
        body: `The local LLM at ${deps.url} does not answer: ${err instanceof Error ? err.message : String(err)}`,
        link: '/llm',
      });
      return;
    }
    failures = 0;
    if (!seen) {
      seen = true;
      deps.settings.set(OLLAMA_SEEN_SETTING, true);
    }
    deps.incidents.clear(OLLAMA_INCIDENT_KEY, {
      category: 'llm',
      title: 'Ollama answers again',
      link: '/llm',
    });
  };
}
