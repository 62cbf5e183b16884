import type { Role } from '@nexus/agent/contract';

export interface NavItem {
  label: string;
  href: string;
}

export interface PrimaryNavItem extends NavItem {
  /** Paths whose prefix makes the item the active one (spec §2: "highlights the active primary item by path prefix"). */
  activePrefixes: readonly string[];
}

/** Spec §2, signed-in primary items: Dashboard at /, Gallery at /flowforge. */
export const PRIMARY_NAV: readonly PrimaryNavItem[] = [
  { label: 'Dashboard', href: '/', activePrefixes: ['/dashboard'] },
  // /studio and /gallery are the same screen as /flowforge.
  { label: 'Gallery', href: '/flowforge', activePrefixes: ['/flowforge', '/studio', '/gallery'] },
];

export interface NavGroup {
  label: string;
  items: readonly NavItem[];
}

/**
 * Spec §2, the Tools and Utilities menu. Labels in parentheses in the spec are used verbatim;
 * the others name the screen they open. Each group ends with the screens issue 21 added so that
 * every screen is at most two clicks from the dashboard (tests/e2e/reach.spec.ts walks it).
 */
export const TOOL_GROUPS: readonly NavGroup[] = [
  {
    label: 'AI & Automation',
    items: [
      { label: 'LLM Control Center', href: '/llm' },
      { label: 'Ollama Integration', href: '/ollama' },
      { label: 'Behavioral Intelligence', href: '/behavioral-analytics' },
      { label: 'Wake Word Training', href: '/wake-words' },
      // Beyond the spec's list (issue 21): screens nothing else led to.
      { label: 'LLM Usage', href: '/llm-usage-discovery' },
      { label: 'Automations', href: '/automations' },
    ],
  },
  {
    label: 'Device Management',
    items: [
      { label: 'Nexus Management', href: '/nexus-management' },
      { label: 'Satellite Management', href: '/satellite-management' },
      { label: 'Multi-Nexus', href: '/multi-nexus' },
      { label: 'Docker', href: '/nexus-docker' },
      { label: 'Deploy', href: '/nexus-deploy' },
      { label: 'Logs', href: '/nexus-logs' },
      { label: 'Control', href: '/nexus-control' },
      { label: 'Phones', href: '/phone-admin' },
    ],
  },
  {
    label: 'Home Assistant',
    items: [
      { label: 'HA Devices', href: '/home-assistant' },
      { label: 'HA Connection Setup', href: '/ha-connection-setup' },
      { label: 'HA Logbook', href: '/ha-logbook' },
      { label: 'HA Entities', href: '/ha-entities' },
      { label: 'HA Connection Test', href: '/ha-connection-test' },
      { label: 'Smart Home Devices', href: '/smart-home-devices' },
    ],
  },
  {
    label: 'Network & Security',
    items: [
      { label: 'VPN connections', href: '/connections' },
      { label: 'UniFi Teleport', href: '/unifi-teleport' },
      { label: 'Creative Networking', href: '/creative-networking' },
      { label: 'Network Info', href: '/network-info' },
    ],
  },
  {
    label: 'System Tools',
    items: [
      { label: 'System Diagnostics', href: '/system-diagnostics' },
      { label: 'Session Simulations', href: '/session-simulations' },
      { label: 'Settings', href: '/settings' },
      { label: 'Notifications', href: '/notifications' },
      { label: 'Integrations', href: '/integrations' },
    ],
  },
];

export interface UserMenuItem extends NavItem {
  /** Shown only to these roles; every signed-in user when absent. */
  roles?: readonly Role[];
}

/** Spec §2, the user menu (with the header's Dashboard item); Sign Out is an action, not a link. */
export const USER_MENU: readonly UserMenuItem[] = [
  { label: 'Dashboard', href: '/dashboard' },
  { label: 'Account Settings', href: '/settings' },
  { label: 'Billing', href: '/billing' },
  { label: 'User Management', href: '/user-management', roles: ['admin', 'superadmin'] },
  { label: 'Add Passkey', href: '/enroll-passkey' },
];

export function userMenuFor(role: Role): UserMenuItem[] {
  return USER_MENU.filter((item) => !item.roles || item.roles.includes(role));
}

/** Spec §6: Super Admin for superadmin, Admin for admin, no badge otherwise. */
export function roleBadge(role: Role): string | null {
  if (role === 'superadmin') return 'Super Admin';
  if (role === 'admin') return 'Admin';
  return null;
}

/** Links of the signed-out bar and the landing page's footer (spec §2). */
export const VISITOR_NAV: readonly NavItem[] = [
  { label: 'Features', href: '/#features' },
  { label: 'Help', href: '/help' },
  { label: 'Docs', href: '/docs' },
  { label: 'Pricing', href: '/pricing' },
];

export const FOOTER_LINKS: readonly NavItem[] = [
  { label: 'Pricing', href: '/pricing' },
  { label: 'API', href: '/docs#api' },
  { label: 'Nexus Setup', href: '/nexus-setup' },
  { label: 'Privacy', href: '/privacy' },
  { label: 'Terms', href: '/terms' },
];

/** Whether a primary item is the active one for the current path. */
export function isPrimaryActive(item: PrimaryNavItem, path: string): boolean {
  if (path === item.href) return true;
  return item.activePrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
