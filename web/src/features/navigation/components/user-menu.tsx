import type { ComponentProps } from 'react';
import type { PublicUser } from '@nexus/agent/contract';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { initials } from '@/lib/initials';
import { DeferredControl } from '@/components/deferred-control';
import { lazyComponent } from '@/lib/lazy-code';
import { roleBadge } from '../nav-items';

export interface UserMenuProps {
  user: PublicUser;
  onSignOut: () => void;
  signingOut: boolean;
}

export function RoleBadge({ role }: { role: PublicUser['role'] }) {
  const label = roleBadge(role);
  if (!label) return null;
  return (
    <Badge variant={role === 'superadmin' ? 'default' : 'secondary'} data-testid="role-badge">
      {label}
    </Badge>
  );
}

export function UserAvatar({ user, className }: { user: PublicUser; className?: string }) {
  return (
    <Avatar className={className}>
      <AvatarFallback className="bg-primary/15 font-semibold text-foreground">
        {initials(user.name, user.email)}
      </AvatarFallback>
    </Avatar>
  );
}

const UserDropdown = lazyComponent(async () => (await import('./user-dropdown')).UserDropdown);

export function UserMenuButton({ user, ...props }: { user: PublicUser } & ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="rounded-full" aria-label="User menu" {...props}>
      <UserAvatar user={user} />
    </Button>
  );
}

/** Spec §2: the user menu (user-dropdown.tsx), its code loaded after the first paint. */
export function UserMenu(props: UserMenuProps) {
  return (
    <DeferredControl
      code={UserDropdown}
      button={(onPress) => <UserMenuButton user={props.user} onClick={onPress} />}
      full={(press) => (
        <UserDropdown.Component
          {...props}
          trigger={<UserMenuButton user={props.user} />}
          roleBadge={<RoleBadge role={props.user.role} />}
          press={press}
        />
      )}
    />
  );
}
