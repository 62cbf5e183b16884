import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/features/auth/auth-provider';
import {
  AppLink,
  Brand,
  MobileMenu,
  PrimaryNav,
  RoleBadge,
  ThemeToggle,
  ToolsMenu,
  UserMenu,
  VISITOR_NAV,
  navLinkClass,
} from '@/features/navigation';
import { NotificationsMenu } from '@/features/notifications/components/notifications-menu';
import { HubName } from '@/features/setup/components/hub-name';

/**
 * Spec §2 "Navigation bar": signed in, the primary items, the Tools and Utilities menu,
 * notifications and the user menu; signed out, Sign In and Get Started. Below the md
 * breakpoint a collapsible menu takes the bar's place.
 */
export function TopBar() {
  const { user, logoutMutation, isLoggingOut } = useAuth();
  const signOut = () => logoutMutation.mutate();

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto hidden h-14 w-full max-w-7xl items-center gap-4 px-4 md:flex">
        <Brand />
        {user ? (
          <HubName className="max-w-40 truncate border-l pl-3 text-sm font-medium text-muted-foreground" />
        ) : null}
        <nav aria-label="Main" className="flex items-center gap-1">
          {user ? (
            <>
              <PrimaryNav />
              <ToolsMenu />
            </>
          ) : (
            VISITOR_NAV.map((item) => (
              <AppLink key={item.href} href={item.href} className={navLinkClass}>
                {item.label}
              </AppLink>
            ))
          )}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <ThemeToggle />
          {user ? (
            <>
              <NotificationsMenu userId={user.id} />
              <RoleBadge role={user.role} />
              <UserMenu user={user} onSignOut={signOut} signingOut={isLoggingOut} />
            </>
          ) : (
            <>
              <Button variant="ghost" asChild>
                <Link href="/auth">Sign In</Link>
              </Button>
              <Button asChild>
                <Link href="/auth">Get Started</Link>
              </Button>
            </>
          )}
        </div>
      </div>
      <MobileMenu
        user={user}
        onSignOut={signOut}
        signingOut={isLoggingOut}
        bar={
          <>
            <Brand />
            {user ? <HubName className="min-w-0 truncate text-sm text-muted-foreground" /> : null}
            <div className="ml-auto flex items-center gap-1">
              <ThemeToggle />
              {user && <NotificationsMenu userId={user.id} />}
            </div>
          </>
        }
      />
    </header>
  );
}
