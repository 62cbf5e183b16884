import type { MouseEvent, ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { cn } from '@/lib/utils';

export const navLinkClass =
  'inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-[current=page]:bg-accent aria-[current=page]:text-foreground';

/** Scrolls to the element named by a URL's hash, if it is on the page. */
export function scrollToHash(hash: string): boolean {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  const target = id ? document.getElementById(id) : null;
  if (!target) return false;
  target.scrollIntoView({ behavior: 'smooth', block: 'start' });
  // Keyboard and screen-reader users continue from the section, not from the link.
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  return true;
}

/**
 * A link to an in-console path that may carry a #section. On the same page it scrolls there
 * (wouter does not treat a hash change as navigation); elsewhere it navigates and the target
 * page scrolls on arrival.
 */
export function AppLink({
  href,
  className,
  children,
  onNavigate,
  ...rest
}: {
  href: string;
  className?: string;
  children: ReactNode;
  onNavigate?: () => void;
  'aria-current'?: 'page' | undefined;
}) {
  const [location] = useLocation();
  const [path, hash] = href.split('#') as [string, string | undefined];
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onNavigate?.();
    if (hash && (path === '' || path === location)) {
      if (scrollToHash(hash)) {
        event.preventDefault();
        window.history.replaceState(window.history.state, '', `#${hash}`);
      }
    }
  };
  return (
    <Link href={href} className={cn(className)} onClick={onClick} {...rest}>
      {children}
    </Link>
  );
}
