/**
 * The audit feature's public surface: other features import it from here, never from its files
 * (eslint boundaries/dependencies holds that; docs/web-data-layer.md).
 */
export type { AuditLog, AuditRecorder } from './audit.service.js';
export { requestOrigin, type RequestOrigin } from './audit-scope.js';
