import { useLayoutEffect } from 'react';

/**
 * The attribute web/vite-prerender.ts puts on #root of a prerendered page. Until the page's screen
 * is live its buttons take no pointer (index.css): a press on a part of the page that React has
 * not taken over yet would be lost (React drops a click on a part whose code has not arrived).
 */
const ATTRIBUTE = 'data-prerendered';

function rootElement(): HTMLElement | null {
  return document.getElementById('root');
}

export function isPrerenderedPage(root: HTMLElement): boolean {
  return root.hasAttribute(ATTRIBUTE);
}

/** The page is live: its screen (or the screen's error message) has rendered in the browser. */
export function markPageLive(root: HTMLElement | null = rootElement()): void {
  root?.removeAttribute(ATTRIBUTE);
}

/** For the screen's frame: once it has rendered, the prerendered page it took over is live. */
export function useMarkPageLive(): void {
  useLayoutEffect(() => markPageLive(), []);
}
