/**
 * The notifications feature's public surface: other features import it from here, never from its files
 * (eslint boundaries/dependencies holds that; docs/web-data-layer.md).
 */
export type { Notify } from './notifications.service.js';
export { notificationIncidents, notifications } from './notifications.table.js';
