import type { QueryClient } from '@tanstack/react-query';
import { lazy, useState, type ComponentType } from 'react';

/** What every screen of the route table receives from the router. */
export interface ScreenProps {
  signedIn: boolean;
}

export interface ScreenDef {
  /** The document title (and, for screens not built yet, their heading). */
  title: string;
  Component: ComponentType<ScreenProps>;
  /** False for a screen that only says it is not built yet. */
  built: boolean;
  /** Starts loading the screen's code before it renders (idempotent). */
  preload?: () => void;
  /**
   * Asks for the screen's first data, signed in, as soon as its route is known: while its code
   * loads and the frame renders, rather than once the screen has rendered (issue 26). Resolves once
   * the reads are asked for (not answered); never rejects.
   */
  prefetch?: (client: QueryClient) => Promise<void>;
}

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
 * entry preloads the first screen's: app/router.tsx startFirstScreen). React.lazy suspends on its
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

/**
 * A built screen, loaded when its route is first opened so the first page stays small:
 * `screen('Docker', async () => (await import('@/features/docker')).DockerPage)`.
 */
export function screen(
  title: string,
  load: () => Promise<ComponentType<ScreenProps>>,
  /** `prefetch` resolves once the reads are asked for (see ScreenDef). */
  options: { prefetch?: (client: QueryClient) => Promise<void> } = {},
): ScreenDef {
  const component = sharedLoad(load);
  const { prefetch } = options;
  return {
    title,
    Component: preloadedOrLazy(
      lazy(async () => ({ default: await component.load() })),
      component.loaded,
    ),
    built: true,
    // A failed load is reported when the screen renders (its error boundary), not here.
    preload: () => void component.load().catch(() => undefined),
    // A failed prefetch is the screen's own query to report when it renders.
    prefetch: prefetch && ((client) => prefetch(client).catch(() => undefined)),
  };
}
