import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { lazyComponent } from '@/lib/lazy-code';

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
   * the reads are answered or have failed; never rejects.
   */
  prefetch?: (client: QueryClient) => Promise<void>;
}

/**
 * A built screen, loaded when its route is first opened so the first page stays small:
 * `screen('Docker', async () => (await import('@/features/docker')).DockerPage)`.
 */
export function screen(
  title: string,
  load: () => Promise<ComponentType<ScreenProps>>,
  /** `prefetch` resolves once the reads are answered or have failed (see ScreenDef). */
  options: { prefetch?: (client: QueryClient) => Promise<void> } = {},
): ScreenDef {
  const component = lazyComponent(load);
  const { prefetch } = options;
  return {
    title,
    Component: component.Component,
    built: true,
    // A failed load is reported when the screen renders (its error boundary), not here.
    preload: () => void component.load().catch(() => undefined),
    // A failed prefetch is the screen's own query to report when it renders.
    prefetch: prefetch && ((client) => prefetch(client).catch(() => undefined)),
  };
}
