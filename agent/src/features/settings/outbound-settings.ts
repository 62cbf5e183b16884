import { z } from 'zod';
import type { OutboundSettings, OutboundSettingsInput } from '../../contract/outbound.js';
import { outboundSettingsInputSchema } from '../../contract/outbound.js';
import type { SettingsRepository } from './settings.repository.js';

export const OUTBOUND_SETTINGS_KEY = 'outbound.allow-list';

const storedSchema = z.array(z.string());

/**
 * The admin's allow-list for outbound requests members aim (flows' http_request stage), in the
 * settings table. Read on every guarded connection, so it is cached here and replaced on save.
 */
export function createOutboundSettings(settings: Pick<SettingsRepository, 'get' | 'set'>) {
  let cached: readonly string[] | null = null;
  function allowList(): readonly string[] {
    cached ??= settings.get(OUTBOUND_SETTINGS_KEY, storedSchema) ?? [];
    return cached;
  }
  return {
    allowList,
    get(): OutboundSettings {
      return { allowList: [...allowList()] };
    },
    update(input: OutboundSettingsInput): OutboundSettings {
      // Parsed again here so a caller that skipped the route's validation still stores canonical entries.
      const { allowList } = outboundSettingsInputSchema.parse(input);
      settings.set(OUTBOUND_SETTINGS_KEY, allowList);
      cached = allowList;
      return { allowList: [...allowList] };
    },
  };
}

export type OutboundSettingsService = ReturnType<typeof createOutboundSettings>;
