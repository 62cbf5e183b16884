import { describe, expect, it } from 'vitest';
import { PRIMARY_NAV, isPrimaryActive, roleBadge, userMenuFor } from './nav-items';

const [dashboard, gallery] = PRIMARY_NAV;

describe('primary navigation (spec §2)', () => {
  it('highlights Dashboard on / and under /dashboard only', () => {
    expect(isPrimaryActive(dashboard!, '/')).toBe(true);
    expect(isPrimaryActive(dashboard!, '/dashboard')).toBe(true);
    expect(isPrimaryActive(dashboard!, '/flowforge')).toBe(false);
    expect(isPrimaryActive(dashboard!, '/dashboards-elsewhere')).toBe(false);
  });

  it('highlights Gallery by the /flowforge prefix and its aliases', () => {
    for (const path of ['/flowforge', '/flowforge/api-keys', '/studio', '/gallery']) {
      expect(isPrimaryActive(gallery!, path)).toBe(true);
    }
    expect(isPrimaryActive(gallery!, '/')).toBe(false);
  });
});

describe('user menu (spec §2, §6)', () => {
  it('shows User Management to admins and superadmins only', () => {
    const labels = (role: 'user' | 'admin' | 'superadmin') => userMenuFor(role).map((i) => i.label);
    expect(labels('user')).toEqual(['Dashboard', 'Account Settings', 'Billing', 'Add Passkey']);
    expect(labels('admin')).toContain('User Management');
    expect(labels('superadmin')).toContain('User Management');
  });

  it('badges Super Admin and Admin', () => {
    expect(roleBadge('superadmin')).toBe('Super Admin');
    expect(roleBadge('admin')).toBe('Admin');
    expect(roleBadge('user')).toBeNull();
  });
});
