import { useEffect, useState } from 'react';

/**
 * True once the browser has been idle after the first screen (or after 2 s at the latest): the
 * moment for code that the first paint does not need, such as tooltips, toasts and what lies below
 * the fold (issue 26: on a slow phone, parsing it earlier delays the page's largest paint).
 */
export function useBrowserIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const callback = () => setIdle(true);
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(callback, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(callback, 200);
    return () => clearTimeout(handle);
  }, []);
  return idle;
}
