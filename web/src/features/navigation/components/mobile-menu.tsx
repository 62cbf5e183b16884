import * as Collapsible from '@radix-ui/react-collapsible';
import { LogOut, Menu, X } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { PublicUser } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { PRIMARY_NAV, TOOL_GROUPS, VISITOR_NAV, isPrimaryActive, userMenuFor } from '../nav-items';
import { AppLink } from './nav-link';
import { RoleBadge, UserAvatar } from './user-menu';

const mobileLinkClass =
  'flex min-h-10 items-center rounded-md px-3 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring aria-[current=page]:bg-accent';

export interface MobileMenuProps {
  /** The row that stays visible: brand and quick actions. */
  bar: ReactNode;
  user: PublicUser | null;
  onSignOut: () => void;
  signingOut: boolean;
}

/** Spec §2: on small screens a collapsible menu replaces the bar. */
export function MobileMenu({ bar, user, onSignOut, signingOut }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  // Whatever was chosen, the next screen starts with the menu closed.
  const [seenLocation, setSeenLocation] = useState(location);
  if (seenLocation !== location) {
    setSeenLocation(location);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const close = () => setOpen(false);

  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="md:hidden">
      <div className="flex h-14 items-center justify-between gap-2 px-4">
        {bar}
        <Collapsible.Trigger asChild>
          <Button variant="ghost" size="icon" aria-label={open ? 'Close menu' : 'Open menu'}>
            {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
        </Collapsible.Trigger>
      </div>
      <Collapsible.Content
        className="max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-t bg-background px-4 pb-4"
        aria-label="Menu"
        role="navigation"
      >
        {user ? (
          <SignedInItems
            user={user}
            onSignOut={onSignOut}
            signingOut={signingOut}
            location={location}
            close={close}
          />
        ) : (
          <div className="flex flex-col gap-1 pt-3">
            {VISITOR_NAV.map((item) => (
              <AppLink key={item.href} href={item.href} className={mobileLinkClass} onNavigate={close}>
                {item.label}
              </AppLink>
            ))}
            <div className="mt-3 grid gap-2">
              <Button variant="outline" asChild>
                <AppLink href="/auth" onNavigate={close}>
                  Sign In
                </AppLink>
              </Button>
              <Button asChild>
                <AppLink href="/auth" onNavigate={close}>
                  Get Started - Free
                </AppLink>
              </Button>
            </div>
          </div>
        )}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

function SignedInItems({
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
