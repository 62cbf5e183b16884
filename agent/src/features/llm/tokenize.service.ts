import type { TOKENIZER_ENCODINGS, TokenizeResult } from '../../contract/llm.js';

type Encoding = (typeof TOKENIZER_ENCODINGS)[number];
interface Tokenizer {
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

/** Each encoding's rank table is large: loaded on first use only. */
const loaders: Record<Encoding, () => Promise<Tokenizer>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
  p50k_base: () => import('gpt-tokenizer/encoding/p50k_base'),
  r50k_base: () => import('gpt-tokenizer/encoding/r50k_base'),
};

/**
 * Splits text into tokens with OpenAI's BPE encodings (gpt-tokenizer). A token that holds only
 * part of a multi-byte character decodes alone to U+FFFD, which is how the model sees it.
 */
export function createTokenizeService() {
  const loaded = new Map<Encoding, Promise<Tokenizer>>();
  return {
    async tokenize(text: string, encoding: Encoding): Promise<TokenizeResult> {
      let tokenizer = loaded.get(encoding);
      if (!tokenizer) loaded.set(encoding, (tokenizer = loaders[encoding]()));
      const t = await tokenizer;
      const ids = t.encode(text);
      return {
        encoding,
        tokens: ids.map((id) => ({ id, text: t.decode([id]) })),
        characters: [...text].length,
      };
    },
  };
}

export type TokenizeService = ReturnType<typeof createTokenizeService>;
