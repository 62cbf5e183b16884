import { Menu, X } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { VISITOR_NAV } from '../nav-items';
import { AppLink } from './nav-link';

export const mobileLinkClass =
  'flex min-h-10 items-center rounded-md px-3 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring aria-[current=page]:bg-accent';

export interface MobileMenuProps {
  /** The row that stays visible: brand and quick actions. */
  bar: ReactNode;
  /**
   * The menu's links; `close` closes it (call it when one is chosen). Visitors' links are
   * VisitorMenuItems; the signed-in console's are in mobile-menu-items.tsx, which loads with it.
   */
  items: (close: () => void, location: string) => ReactNode;
}

/** Spec §2: on small screens a collapsible menu replaces the bar. */
export function MobileMenu({ bar, items }: MobileMenuProps) {
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
  const menuId = useId();

  // A disclosure (WAI-ARIA APG): the button says whether the menu is open and which element it
  // opens. Hand-written rather than Radix's Collapsible, which measures its content (a forced
  // style and layout of the whole page) as every page mounts, for an open/close animation this
  // menu does not have: about 70 ms of a slowed phone's first render (issue 26).
  return (
    <div className="md:hidden">
      <div className="flex h-14 items-center justify-between gap-2 px-4">
        {bar}
        <Button
          variant="ghost"
          size="icon"
          aria-label={open ? 'Close menu' : 'Open menu'}
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen(!open)}
        >
          {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </Button>
      </div>
      <div
        id={menuId}
        hidden={!open}
        className="max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-t bg-background px-4 pb-4"
        aria-label="Menu"
        role="navigation"
      >
        {open && items(close, location)}
      </div>
    </div>
  );
}

/** Visitors' links in the small-screen menu. */
export function VisitorMenuItems({ close }: { close: () => void }) {
  return (
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
  );
}
