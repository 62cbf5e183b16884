import { useEffect, useState } from 'react';
import { useHydrated } from './use-hydrated';

/** Once the page has been idle, controls mounted later (another screen, after sign-in) need not wait. */
let pageWasIdle = false;

/**
 * True once the browser has been idle after the first screen (or after 2 s at the latest): the
 * moment for code that the first paint does not need, such as tooltips, toasts and what lies below
 * the fold (issue 26: on a slow phone, parsing it earlier delays the page's largest paint).
 */
export function useBrowserIdle(): boolean {
  // A part of a prerendered page that goes live after the page has been idle (its code came
  // later) must first render as the build did, without what idleness brings.
  const hydrated = useHydrated();
  const [idle, setIdle] = useState(pageWasIdle);
  useEffect(() => {
    if (idle) return;
    const callback = () => {
      pageWasIdle = true;
      setIdle(true);
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(callback, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(callback, 200);
    return () => clearTimeout(handle);
  }, [idle]);
  return idle && hydrated;
}
