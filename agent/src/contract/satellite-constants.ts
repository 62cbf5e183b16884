import type { SatelliteSource } from './satellites.js';

/**
 * The satellites' sources and connection words, without zod: the dashboard's satellite card and
 * its read of the list use them without loading zod and the schemas (issue 26). satellites.ts
 * re-exports them.
 */

export const SATELLITE_SOURCES = ['home-assistant', 'wyoming', 'nexus'] as const;
export const SATELLITE_SOURCE_LABELS: Record<SatelliteSource, string> = {
  'home-assistant': 'Home Assistant',
  wyoming: 'Wyoming',
  nexus: 'Nexus satellite API',
};

export const WYOMING_CONNECTION_STATES = ['connecting', 'connected', 'disconnected'] as const;
