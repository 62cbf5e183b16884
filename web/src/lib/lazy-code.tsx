import { lazy, useState, type ComponentType } from 'react';

/**
 * One load of a module, shared by everyone who asks for it (the entry's preload, a prefetch, the
 * render); `loaded()` is what it gave once it has arrived. A failed load is forgotten, so the next
 * ask tries again.
 */
export function sharedLoad<T>(load: () => Promise<T>): {
  load: () => Promise<T>;
  loaded: () => T | undefined;
} {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  return {
    load: () =>
      (pending ??= load().then(
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
