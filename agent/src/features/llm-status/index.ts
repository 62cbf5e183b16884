/**
 * The llm-status feature's public surface: other features import it from here, never from its files
 * (eslint boundaries/dependencies holds that; docs/web-data-layer.md).
 */
export type { LlmStatusProvider } from './llm-status.service.js';
