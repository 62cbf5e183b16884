/**
 * The home-assistant feature's public surface: other features import it from here, never from its files
 * (eslint boundaries/dependencies holds that; docs/web-data-layer.md).
 */
export type { HaCacheChange } from './ha-connection.js';
export type { SettingsStore } from './ha-config.js';
export type { AutomationsService } from './automations.service.js';
export type { HaConnection, HaStateTransition } from './ha-connection.js';
export type { MemberAccessStore } from './member-access.js';
