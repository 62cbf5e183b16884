import { lazy, useState, type ComponentType } from 'react';

/**
 * What a browser says when a module's file could not be fetched: Chromium, Firefox, Safari, and
 * Vite's preload of a chunk's styles. A screen whose code threw while it ran is not one of these.
 */
const CODE_FETCH_FAILED =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isCodeFetchFailure(error: unknown): boolean {
  return error instanceof Error && CODE_FETCH_FAILED.test(error.message);
}

/**
 * The waits before asking again for code whose fetch failed. A phone that changes networks or a
 * VPN that reconnects fails the requests in flight (Chromium's ERR_NETWORK_CHANGED) and works
 * again a moment later; a hub updated while the tab was open has removed the old file, and after
 * the last try the screen says so and offers a reload (app/screen-error-boundary.tsx).
 */
export const CODE_RETRY_WAITS_MS = [300, 1200] as const;

/**
 * `load()`, asked again after each of `waits` while its failure is a failed fetch. HTML's module
 * map no longer keeps a failed fetch (whatwg/html#10327, in Chromium), so the next `import()`
 * fetches the file anew; an engine that still keeps it fails the retries at once, and the screen
 * offers its reload as before.
 */
export async function loadCode<T>(
  load: () => Promise<T>,
  waits: readonly number[] = CODE_RETRY_WAITS_MS,
): Promise<T> {
  for (const wait of waits) {
    try {
      return await load();
    } catch (error) {
      if (!isCodeFetchFailure(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return load();
}

/**
 * One load of a module, shared by everyone who asks for it (the entry's preload, a prefetch, the
 * render); `loaded()` is what it gave once it has arrived. A failed fetch is tried again
 * (loadCode), and a load that failed even so is forgotten, so the next ask tries again.
 */
export function sharedLoad<T>(load: () => Promise<T>): {
  load: () => Promise<T>;
  loaded: () => T | undefined;
} {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  return {
    load: () =>
      (pending ??= loadCode(load).then(
        (result) => (value = result),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
    loaded: () => value,
  };
}

/**
 * A lazily loaded component that renders straight away when its code has already arrived (the
 * entry preloads the first screen's, app/router.tsx startFirstScreen; a deferred control waits for
 * its code before it swaps, components/deferred-control.tsx). React.lazy suspends on its
 * first render even then, and every reveal after a fallback waits for React's throttle of
 * Suspense reveals (up to 300 ms), so the first figures would paint later than their data
 * (issue 26). Which of the two renders is chosen once per mount, so a screen never remounts.
 */
export function preloadedOrLazy<P extends object>(
  Lazy: ComponentType<P>,
  loaded: () => ComponentType<P> | undefined,
): ComponentType<P> {
  function PreloadedOrLazy(props: P) {
    const [Component] = useState(() => loaded() ?? Lazy);
    return <Component {...props} />;
  }
  return PreloadedOrLazy;
}

/** A component whose code loads on demand: `load()` asks for it once, `loaded()` is it once arrived. */
export interface LazyComponent<P extends object> {
  Component: ComponentType<P>;
  load: () => Promise<unknown>;
  loaded: () => unknown;
}

/**
 * `lazyComponent(async () => (await import('./tools-dropdown')).ToolsDropdown)`: a component that
 * renders at once when its code has arrived (and suspends until then otherwise), with the load
 * shared by whoever asks for it first.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  const code = sharedLoad(load);
  return {
    Component: preloadedOrLazy(
      lazy(async () => ({ default: await code.load() })),
      code.loaded,
    ),
    load: code.load,
    loaded: code.loaded,
  };
}
