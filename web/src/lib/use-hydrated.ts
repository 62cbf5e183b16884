import { useSyncExternalStore } from 'react';

const nothingToSubscribe = () => () => undefined;

/**
 * False while React hydrates a page that was prerendered at build time (web/vite-prerender.ts),
 * and when rendering on the server; true afterwards, and from the first render of a page rendered
 * in the browser. What only the browser knows (the stored theme, whether the page's code has
 * arrived) is shown once this is true, so the first client render matches the prerendered HTML:
 * React keeps that HTML instead of throwing it away and rendering again.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    nothingToSubscribe,
    () => true,
    () => false,
  );
}
