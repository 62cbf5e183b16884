import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layers' rules are lint rules (eslint.config.js). ESLint gives a rule the options of the last
 * config object that sets it for a file, so a later block can silently drop an earlier one's
 * import rule; this lints a line of each forbidden kind as each layer's own file and expects the
 * rule's message.
 */

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function messages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const probe = 1;\n`, {
    filePath: path.join(root, file),
  });
  return (result?.messages ?? []).map((m) => m.message);
}

const SCREEN = 'web/src/features/docker/index.ts';
const DATA = 'web/src/data/auth-sign-in.ts';
const CONTRACT = 'agent/src/contract/index.ts';
const AGENT = 'agent/src/features/audit/index.ts';

// Typed linting builds a TypeScript program for each tsconfig a file belongs to on its first lint:
// 3.7 s for the agent's alone on an idle machine, past vitest's 5 s default beside the other unit
// workers in CI. Each layer's program is built once before the tests, and a lint gets ESLint's budget.
const LINT_TIMEOUT_MS = 60_000;

describe('lint holds the layers', { timeout: LINT_TIMEOUT_MS }, () => {
  beforeAll(async () => {
    await Promise.all([SCREEN, DATA, CONTRACT, AGENT].map((file) => messages(file, '')));
  }, 2 * LINT_TIMEOUT_MS);

  it('a screen may not call the agent itself', async () => {
    expect(await messages(SCREEN, "import { apiJson } from '@/lib/request';\nvoid apiJson;")).toContainEqual(
      expect.stringContaining('Call the agent through a web/src/data module'),
    );
    expect(await messages(SCREEN, 'void fetch;')).toContainEqual(
      expect.stringContaining('Call the agent through a web/src/data module'),
    );
  });

  it('the web imports the agent through its contract only, in every layer', async () => {
    for (const file of [SCREEN, DATA]) {
      expect(await messages(file, "import '@nexus/agent/src/app';")).toContainEqual(
        expect.stringContaining('The web imports only the agent contract'),
      );
    }
  });

  it('production code never imports a test fixture', async () => {
    for (const file of [SCREEN, DATA, AGENT]) {
      expect(await messages(file, "import '../../../tests/fixtures/ha-simulator';")).toContainEqual(
        expect.stringContaining('never imports a test fixture'),
      );
    }
  });

  it('the contract imports nothing but zod', async () => {
    expect(await messages(CONTRACT, "import 'hono';")).toContainEqual(
      expect.stringContaining('The contract imports nothing but zod'),
    );
    expect(await messages(CONTRACT, "import { z } from 'zod';\nvoid z;")).toEqual([]);
  });

  it('the web loads code through lib/lazy-code', async () => {
    expect(await messages(SCREEN, "void import('yaml');")).toContainEqual(
      expect.stringContaining('Load code through lib/lazy-code'),
    );
  });
});
