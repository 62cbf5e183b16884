import { LogOut } from 'lucide-react';
import type { ReactElement, ReactNode } from 'react';
import type { PublicUser } from '@nexus/agent/contract';
import { Link } from 'wouter';
import { useFirstItemFocus, type EarlyPress } from '@/components/deferred-control';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { userMenuFor } from '../nav-items';

/** Spec §2: the user menu. Sign Out stays open and reads "Signing out..." until the call is done. */
export function UserDropdown({
  user,
  onSignOut,
  signingOut,
  trigger,
  roleBadge,
  press,
}: {
  user: PublicUser;
  onSignOut: () => void;
  signingOut: boolean;
  /** The avatar button (user-menu.tsx), passed in so that this lazy module imports nothing back. */
  trigger: ReactElement;
  roleBadge: ReactNode;
  press: EarlyPress | null;
}) {
  const firstItemFocus = useFirstItemFocus(press);
  return (
    <DropdownMenu modal={false} defaultOpen={press !== null}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60" ref={firstItemFocus}>
        <DropdownMenuLabel className="flex flex-col gap-1 font-normal">
          <span className="truncate text-sm font-medium">{user.name}</span>
          <span className="truncate text-xs text-muted-foreground">{user.email}</span>
          {roleBadge}
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
