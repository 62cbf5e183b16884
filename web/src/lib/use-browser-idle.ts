import { useEffect, useState } from 'react';

/** Once the page has been idle, controls mounted later (another screen, after sign-in) need not wait. */
let pageWasIdle = false;

/**
 * True once the browser has been idle after the first screen (or after 2 s at the latest): the
 * moment for code that the first paint does not need, such as tooltips, toasts and what lies below
 * the fold (issue 26: on a slow phone, parsing it earlier delays the page's largest paint).
 */
export function useBrowserIdle(): boolean {
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
  return idle;
}
