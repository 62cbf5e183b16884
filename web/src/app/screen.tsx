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
  let loading: Promise<ComponentType<ScreenProps>> | undefined;
  let loaded: ComponentType<ScreenProps> | undefined;
  const loadOnce = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const { prefetch } = options;
  return {
    title,
    Component: preloadedOrLazy(
      lazy(async () => ({ default: await loadOnce() })),
      () => loaded,
    ),
    built: true,
    // A failed load is reported when the screen renders (its error boundary), not here.
    preload: () => void loadOnce().catch(() => undefined),
    // A failed prefetch is the screen's own query to report when it renders.
    prefetch: prefetch && ((client) => prefetch(client).catch(() => undefined)),
  };
}

const PlaceholderScreen = lazy(async () => ({
  default: (await import('@/features/placeholder/placeholder-screen')).PlaceholderScreen,
}));

/**
 * A screen whose feature is not built yet: its title, one sentence of what it will do, and
 * links to screens that are built (worked out from the route table when it renders).
 */
export function notBuilt(
  title: string,
  description: string,
  links: (signedIn: boolean) => readonly { label: string; href: string }[],
): ScreenDef {
  function NotBuiltScreen({ signedIn }: ScreenProps) {
    return <PlaceholderScreen title={title} description={description} links={links(signedIn)} />;
  }
  NotBuiltScreen.displayName = `NotBuilt(${title})`;
  return { title, Component: NotBuiltScreen, built: false };
}
