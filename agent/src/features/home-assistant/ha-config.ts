import { z, type ZodType } from 'zod';
import type { HaTarget } from '../../adapters/home-assistant.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sameOrigin } from '../../lib/origin.js';

export const HA_SETTINGS_KEY = 'home-assistant.connection';

/** The settings repository, as this feature uses it. */
export interface SettingsStore {
  get<T>(key: string, schema: ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** What is stored: the token only sealed by the SecretBox, never in the clear. */
const storedSchema = z.object({
  url: z.string(),
  tokenSealed: z.string(),
  source: z.enum(['environment', 'settings']),
  updatedAt: z.string(),
});
type Stored = z.infer<typeof storedSchema>;

export interface HaConfig extends HaTarget {
  source: 'environment' | 'settings';
  updatedAt: string;
}

/** Loads and saves Home Assistant's address and token; the token is sealed at rest. */
export function createHaConfigStore(deps: {
  settings: SettingsStore;
  secrets: SecretBox;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let undecryptable = false;

  function read(): Stored | undefined {
    return deps.settings.get(HA_SETTINGS_KEY, storedSchema);
  }

  return {
    /** The stored connection, or null. A token that cannot be opened (secret.key replaced) reads as none. */
    load(): HaConfig | null {
      const stored = read();
      if (!stored) return null;
      try {
        const token = deps.secrets.open(stored.tokenSealed);
        undecryptable = false;
        return { url: stored.url, token, source: stored.source, updatedAt: stored.updatedAt };
      } catch (err) {
        if (!undecryptable) {
          deps.log.error(
            { err },
            'the stored Home Assistant token cannot be decrypted; enter it again in the settings',
          );
        }
        undecryptable = true;
        return null;
      }
    },

    /** True when a URL is stored but its token could not be decrypted. */
    get tokenUnreadable(): boolean {
      return undecryptable;
    },

    /** What the settings screen may see: never the token. */
    describe(): {
      url: string | null;
      tokenSet: boolean;
      source: Stored['source'] | null;
      updatedAt: string | null;
    } {
      const stored = read();
      if (!stored) return { url: null, tokenSet: false, source: null, updatedAt: null };
      return {
        url: stored.url,
        tokenSet: !undecryptable,
        source: stored.source,
        updatedAt: stored.updatedAt,
      };
    },

    /**
     * Saves the URL and, when given, a new token; without one the stored token is kept, but only
     * while the address stays on the same origin (sameOrigin).
     */
    save(
      input: { url: string; token?: string },
      source: Stored['source'] = 'settings',
    ): 'saved' | 'token_required' {
      const stored = read();
      let tokenSealed: string;
      if (input.token !== undefined) tokenSealed = deps.secrets.seal(input.token);
      else if (stored && !undecryptable && sameOrigin(stored.url, input.url))
        tokenSealed = stored.tokenSealed;
      else return 'token_required';
      deps.settings.set(HA_SETTINGS_KEY, {
        url: input.url,
        tokenSealed,
        source,
        updatedAt: new Date(now()).toISOString(),
      } satisfies Stored);
      if (input.token !== undefined) undecryptable = false;
      return 'saved';
    },

    clear(): void {
      deps.settings.delete(HA_SETTINGS_KEY);
      undecryptable = false;
    },

    /** HA_URL/HA_TOKEN configure Home Assistant at first start only; the stored settings win afterwards. */
    seedFromEnvironment(env: { HA_URL?: string; HA_TOKEN?: string }): boolean {
      if (!env.HA_URL || !env.HA_TOKEN || read()) return false;
      this.save({ url: env.HA_URL.replace(/\/+$/, ''), token: env.HA_TOKEN }, 'environment');
      return true;
    },
  };
}

export type HaConfigStore = ReturnType<typeof createHaConfigStore>;
