import { useLocation } from 'wouter';
import { PRIMARY_NAV, isPrimaryActive } from '../nav-items';
import { AppLink, navLinkClass } from './nav-link';

/** Dashboard and Gallery, the active one marked by path prefix (spec §2). */
export function PrimaryNav() {
  const [location] = useLocation();
  return (
    <>
      {PRIMARY_NAV.map((item) => (
        <AppLink
          key={item.href}
          href={item.href}
          className={navLinkClass}
          aria-current={isPrimaryActive(item, location) ? 'page' : undefined}
        >
          {item.label}
        </AppLink>
      ))}
    </>
  );
}
