// Every table of every feature, for drizzle's typed client and drizzle-kit's migrations.
export * from '../features/auth/auth.table.js';
export * from '../features/auth/password-reset.table.js';
export * from '../features/auth/invites.table.js';
export * from '../features/auth/account-security.table.js';
export * from '../features/audit/audit.table.js';
export * from '../features/notifications/notifications.table.js';
export * from '../features/settings/settings.table.js';
export * from '../features/usage/usage.table.js';
export * from '../features/subscription/subscription.table.js';
export * from '../features/satellites/satellites.table.js';
export * from '../features/home-assistant/automations.table.js';
export * from '../features/docker/docker.table.js';
export * from '../features/nexus-management/nexus-management.table.js';
export * from '../features/llm/llm.table.js';
export * from '../features/flows/flows.table.js';
export * from '../features/speech/speech.table.js';
export * from '../features/wake-words/wake-words.table.js';
