import { ROLES, type PublicUser, type Role } from '@nexus/agent/contract';

/** The names the console shows for roles (the same words as the top bar's role badge). */
export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  admin: 'Admin',
  superadmin: 'Super Admin',
};

export interface AccountPermissions {
  /** Why the role and the account cannot be changed by this actor, or null when they can. */
  locked: string | null;
  /** The roles the actor may give the account. */
  roles: readonly Role[];
}

/**
 * What `actor` may do to `target`, following the agent's rules (AuthService.changeRole and
 * deleteUser, and the repository's last-superadmin check), so the screen offers only what the
 * agent would accept. The agent still decides: a list gone stale between loading and clicking
 * gets its refusal shown.
 */
export function permissionsFor(
  actor: PublicUser,
  target: PublicUser,
  superadmins: number,
): AccountPermissions {
  const roles = actor.role === 'superadmin' ? ROLES : ROLES.filter((role) => role !== 'superadmin');
  if (target.id === actor.id) {
    // The agent refuses to delete yourself but would let you demote yourself: one click that
    // takes away this very screen with no way back. Another administrator has to do it.
    return { locked: 'You cannot change your own role or delete your own account.', roles };
  }
  if (target.role === 'superadmin' && actor.role !== 'superadmin') {
    return { locked: 'Only a Super Admin can change or delete a Super Admin.', roles };
  }
  if (target.role === 'superadmin' && superadmins <= 1) {
    return { locked: 'The last Super Admin: make another account Super Admin first.', roles };
  }
  return { locked: null, roles };
}
