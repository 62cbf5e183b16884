import { LogOut } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@nexus/agent/contract';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { initials } from '@/lib/initials';
import { roleBadge, userMenuFor } from '../nav-items';

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

/** Spec §2: the user menu. Sign Out stays open and reads "Signing out..." until the call is done. */
export function UserMenu({ user, onSignOut, signingOut }: UserMenuProps) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label="User menu">
          <UserAvatar user={user} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="flex flex-col gap-1 font-normal">
          <span className="truncate text-sm font-medium">{user.name}</span>
          <span className="truncate text-xs text-muted-foreground">{user.email}</span>
          <RoleBadge role={user.role} />
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {userMenuFor(user.role).map((item) => (
          <DropdownMenuItem key={item.href} asChild>
            <Link href={item.href}>{item.label}</Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={signingOut}
          onSelect={(event) => {
            // Keep the menu open so the item can say what is happening.
            event.preventDefault();
            onSignOut();
          }}
        >
          <LogOut aria-hidden="true" />
          {signingOut ? 'Signing out...' : 'Sign Out'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
