export { LlmControlPage } from './components/llm-control-page';
export { OllamaPage } from './components/ollama-page';
export { UsagePage } from './components/usage-page';
export { TokenizationPage } from './components/tokenization-page';
