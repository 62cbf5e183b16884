import type { NotificationCategory, NotificationChannel, NotificationLevel } from '@nexus/agent/contract';

/** How categories, severities and channels are named on screen (one place, for the menu and the page). */
export const CATEGORY_LABELS: Record<NotificationCategory, string> = {
  containers: 'Containers',
  'home-assistant': 'Home Assistant',
  llm: 'AI models',
  satellites: 'Satellites',
  flows: 'Flows',
  system: 'System',
  vpn: 'VPN',
  subscription: 'Licence',
  security: 'Security',
  backups: 'Backups',
};

export const LEVEL_LABELS: Record<NotificationLevel, string> = {
  error: 'Error',
  warning: 'Warning',
  success: 'Resolved',
  info: 'Information',
};

export const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  email: 'E-mail',
  homeAssistant: 'Home Assistant',
  ntfy: 'ntfy',
  webhook: 'Webhook',
};
