import { Moon, Sun } from 'lucide-react';

/**
 * A theme toggle's icon: the moon in the light theme, the sun in the dark one. Drawn from the
 * page's theme class (before-paint.js sets it before the first paint) rather than from React's state, so
 * a prerendered page shows the right one before its code has run.
 */
export function ThemeIcon() {
  return (
    <>
      <Moon aria-hidden="true" className="dark:hidden" />
      <Sun aria-hidden="true" className="hidden dark:block" />
    </>
  );
}
