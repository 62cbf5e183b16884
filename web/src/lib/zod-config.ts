/**
 * zod compiles object parsers with new Function() where eval is allowed, and probes for it the
 * first time a schema parses; the console's Content-Security-Policy forbids eval, and the probe is
 * reported as a violation. zod reads its global config from `globalThis.__zod_globalConfig` when it
 * loads, so this sets `jitless` there without importing zod: it must run before the shared chunk
 * that holds zod and the agent's contract, which a module importing zod could not (its import
 * would run that chunk first). It is its own chunk, imported first by main.tsx (vite.config.ts).
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// In place: zod keeps a reference to this very object.
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });

export {};
