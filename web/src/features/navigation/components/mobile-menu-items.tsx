import { LogOut } from 'lucide-react';
import type { PublicUser } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { PRIMARY_NAV, TOOL_GROUPS, isPrimaryActive, userMenuFor } from '../nav-items';
import { mobileLinkClass } from './mobile-menu';
import { AppLink } from './nav-link';
import { RoleBadge, UserAvatar } from './user-menu';

/** The signed-in console's links in the small-screen menu (loaded with the console's frame). */
export function SignedInItems({
  user,
  onSignOut,
  signingOut,
  location,
  close,
}: {
  user: PublicUser;
  onSignOut: () => void;
  signingOut: boolean;
  location: string;
  close: () => void;
}) {
  return (
    <div className="flex flex-col gap-4 pt-3">
      <div className="flex items-center gap-3 px-1">
        <UserAvatar user={user} className="size-9" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{user.name}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </div>
        <RoleBadge role={user.role} />
      </div>
      <div className="flex flex-col gap-1">
        {PRIMARY_NAV.map((item) => (
          <AppLink
            key={item.href}
            href={item.href}
            className={mobileLinkClass}
            onNavigate={close}
            aria-current={isPrimaryActive(item, location) ? 'page' : undefined}
          >
            {item.label}
          </AppLink>
        ))}
      </div>
      <section aria-label="Tools & Utilities" className="flex flex-col gap-3">
        <p className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          Tools &amp; Utilities
        </p>
        {TOOL_GROUPS.map((group) => (
          <div key={group.label} className="flex flex-col gap-0.5">
            <p className="px-3 text-sm font-semibold">{group.label}</p>
            {group.items.map((item) => (
              <AppLink
                key={item.href}
                href={item.href}
                onNavigate={close}
                className={cn(mobileLinkClass, 'pl-6 text-muted-foreground')}
                aria-current={location === item.href ? 'page' : undefined}
              >
                {item.label}
              </AppLink>
            ))}
          </div>
        ))}
      </section>
      <div className="flex flex-col gap-1 border-t pt-3">
        {userMenuFor(user.role).map((item) => (
          <AppLink key={item.href} href={item.href} className={mobileLinkClass} onNavigate={close}>
            {item.label}
          </AppLink>
        ))}
        <Button variant="ghost" className="justify-start px-3" disabled={signingOut} onClick={onSignOut}>
          <LogOut aria-hidden="true" />
          {signingOut ? 'Signing out...' : 'Sign Out'}
        </Button>
      </div>
    </div>
  );
}
