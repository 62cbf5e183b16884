import type { PublicUser } from '@nexus/agent/contract';
import { useAuth } from '@/features/auth/auth-provider';
import {
  Brand,
  PrimaryNav,
  RoleBadge,
  SignedInItems,
  ThemeToggle,
  ToolsMenu,
  UserMenu,
} from '@/features/navigation';
import { NotificationsMenu } from '@/features/notifications/components/notifications-menu';
import { HubName } from '@/features/setup/components/hub-name';
import { TopBarFrame } from './top-bar';

/**
 * Spec §2 "Navigation bar", signed in: the primary items, the Tools and Utilities menu,
 * notifications and the user menu; below the md breakpoint a collapsible menu takes the bar's
 * place. It loads with the signed-in routes (issue 26: its menus, tooltips and live channel are
 * not part of the signed-out first page).
 */
export function ConsoleTopBar({ user }: { user: PublicUser }) {
  const { logoutMutation, isLoggingOut } = useAuth();
  const signOut = () => logoutMutation.mutate();

  return (
    <TopBarFrame
      wide={
        <>
          <Brand />
          <HubName className="max-w-40 truncate border-l pl-3 text-sm font-medium text-muted-foreground" />
          <nav aria-label="Main" className="flex items-center gap-1">
            <PrimaryNav />
            <ToolsMenu />
          </nav>
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            <NotificationsMenu userId={user.id} />
            <RoleBadge role={user.role} />
            <UserMenu user={user} onSignOut={signOut} signingOut={isLoggingOut} />
          </div>
        </>
      }
      narrow={
        <>
          <Brand />
          <HubName className="min-w-0 truncate text-sm text-muted-foreground" />
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            <NotificationsMenu userId={user.id} />
          </div>
        </>
      }
      items={(close, location) => (
        <SignedInItems
          user={user}
          onSignOut={signOut}
          signingOut={isLoggingOut}
          location={location}
          close={close}
        />
      )}
    />
  );
}
