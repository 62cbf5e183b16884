import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
// Each from its own module, not the navigation barrel: this bar is part of the first page, and the
// barrel also holds the signed-in menus (Radix menus), which load with the console (issue 26).
import { Brand } from '@/features/navigation/components/brand';
import { MobileMenu, VisitorMenuItems } from '@/features/navigation/components/mobile-menu';
import { AppLink, navLinkClass } from '@/features/navigation/components/nav-link';
import { ThemeToggle } from '@/features/navigation/components/theme-toggle';
import { VISITOR_NAV } from '@/features/navigation/nav-items';

/**
 * The bar's frame: the md-and-up row (`wide`) and, below md, the small-screen menu whose
 * visible row is `narrow` and whose links are `items`.
 */
export function TopBarFrame({
  wide,
  narrow,
  items,
}: {
  wide: ReactNode;
  narrow: ReactNode;
  items: (close: () => void, location: string) => ReactNode;
}) {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto hidden h-14 w-full max-w-7xl items-center gap-4 px-4 md:flex">{wide}</div>
      <MobileMenu bar={narrow} items={items} />
    </header>
  );
}

/**
 * Spec §2 "Navigation bar", signed out: the visitors' links, Sign In and Get Started. Below the md
 * breakpoint a collapsible menu takes the bar's place. Signed in, ConsoleTopBar takes its place.
 */
export function TopBar() {
  return (
    <TopBarFrame
      wide={
        <>
          <Brand />
          <nav aria-label="Main" className="flex items-center gap-1">
            {VISITOR_NAV.map((item) => (
              <AppLink key={item.href} href={item.href} className={navLinkClass}>
                {item.label}
              </AppLink>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            <Button variant="ghost" asChild>
              <Link href="/auth">Sign In</Link>
            </Button>
            <Button asChild>
              <Link href="/auth">Get Started</Link>
            </Button>
          </div>
        </>
      }
      narrow={
        <>
          <Brand />
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
          </div>
        </>
      }
      items={(close) => <VisitorMenuItems close={close} />}
    />
  );
}
