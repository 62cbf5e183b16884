/**
 * The auth feature's public surface: other features import it from here, never from its files
 * (eslint boundaries/dependencies holds that; docs/web-data-layer.md).
 */
export { users } from './auth.table.js';
export type { SessionService } from './session.service.js';
