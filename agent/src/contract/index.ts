export * from './auth.js';
export * from './errors.js';
export * from './health.js';
export * from './docs.js';
export * from './notifications.js';
export * from './password-reset.js';
