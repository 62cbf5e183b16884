import type { OllamaClient } from '../../adapters/ollama.js';
import type { LlmStatusProvider } from './llm-status.service.js';

/** The hub's local models: installed per /api/tags, running per /api/ps. */
export function ollamaStatusProvider(client: OllamaClient): LlmStatusProvider {
  return {
    name: 'ollama',
    kind: 'local',
    async probe() {
      const [installed, loaded] = await Promise.all([client.tags(), client.ps()]);
      const running = new Set(loaded.map((m) => m.name));
      return installed.map((m) => ({
        name: m.name,
        running: running.has(m.name),
        sizeBytes: m.size ?? null,
      }));
    },
  };
}
