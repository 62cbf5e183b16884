// Before anything that builds a zod schema.
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { isSignedOut } from './data/auth-session';
import { isSetUp } from './data/setup-status';
import { startFirstScreen } from './app/router';
import { isPrerenderedPage, markPageLive } from './lib/prerendered-page';
import { queryClient } from './lib/query-client';
import { registerServiceWorker } from './lib/service-worker';
import './index.css';

/**
 * The longest React's first render waits for the first screen's reads to be answered. On the
 * home network the preloaded session answer, the reads' module and the reads take well under
 * this; a session check or a read that takes longer shows the spinner or the screen's
 * placeholders meanwhile.
 */
const FIRST_RENDER_WAIT_MS = 200;

const rootElement = document.getElementById('root');
// Spec §8: a missing root element at startup throws.
if (!rootElement) throw new Error('Root element #root not found');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

/**
 * `/` and `/auth` come prerendered to visitors (web/vite-prerender.ts; the agent sends them to a
 * browser without a session on a hub that is set up), so they paint before any script has run.
 * The page is built as a signed-out visitor of a set-up hub sees it: React takes it over
 * (hydrates it) when the session check and the setup status, preloaded by index.html and kept
 * for the app, say so; otherwise (say someone signed in in another tab meanwhile) the app
 * renders afresh in its place, as on every other page.
 */
async function start(root: HTMLElement) {
  // A signed-in owner's screen: its code and first reads start now, before React renders.
  const firstScreen = startFirstScreen(queryClient, window.location.pathname);
  const prerendered = isPrerenderedPage(root);
  const visitor =
    prerendered &&
    (await Promise.all([isSignedOut(queryClient), isSetUp(queryClient)]).then(
      (answers) => answers.every(Boolean),
      // An unanswered check is the app's to show, as on a page that was not prerendered.
      () => false,
    ));
  if (visitor) {
    // The page goes live when its screen has (app/route-views.tsx).
    hydrateRoot(root, app);
    return;
  }
  // React's first render waits until the first screen's reads are answered (the session answer,
  // the reads' small module, the reads): rendering first would hold the main thread, and so the
  // reads, back by a whole render of the page, and their answers would then need a second render
  // of it (issue 26: about a quarter of a second each on a slowed phone). But only briefly: a
  // slow session check gets the app's spinner (spec §2), not a blank page, and slow reads the
  // screen's placeholders; the reads then go on, and their answers render when they come.
  await Promise.race([firstScreen, new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]);
  if (prerendered) {
    root.replaceChildren();
    markPageLive(root);
  }
  createRoot(root).render(app);
}

void start(rootElement);

registerServiceWorker();
