import { parse } from 'regexparam';
import { matchRoute } from 'wouter';
import { sharedLoad } from '@/lib/lazy-code';
import { screen, type ScreenDef } from './screen';

/**
 * The screens and routes the entry knows (spec §2): every visitor's screen with the signed-out
 * table, and the dashboard, the console's first screen. The rest of the console's screens and its
 * signed-in table are in console-routes.tsx, which loads with the console's frame, so a visitor's
 * first page does not carry them (issue 26). One line per screen:
 *   key: screen('Title', async () => (await import('@/features/<f>')).SomePage),
 * and every path that uses the key follows.
 */

const dashboardReads = sharedLoad(() => import('@/features/dashboard/prefetch'));

export const screens = {
  // Visitors (and everyone)
  landing: screen('Nexus Console', async () => (await import('@/features/landing/landing-page')).LandingPage),
  auth: screen('Sign In', async () => (await import('@/features/auth/components/auth-page')).AuthPage),
  forgotPassword: screen(
    'Forgot Password',
    async () => (await import('@/features/public/components/forgot-password-page')).ForgotPasswordPage,
  ),
  resetPassword: screen(
    'Reset Password',
    async () => (await import('@/features/public/components/reset-password-page')).ResetPasswordPage,
  ),
  help: screen('Help', async () => (await import('@/features/public/components/help-page')).HelpPage),
  docs: screen(
    'Documentation',
    async () => (await import('@/features/public/components/docs-page')).DocsPage,
  ),
  // Visitors see the public page; signed in, it is the checkout with the current plan marked.
  pricing: screen('Pricing', async () => (await import('@/features/billing')).PricingScreen),
  privacy: screen(
    'Privacy',
    async () => (await import('@/features/public/components/privacy-page')).PrivacyPage,
  ),
  terms: screen('Terms', async () => (await import('@/features/public/components/terms-page')).TermsPage),
  checkout: screen('Checkout', async () => (await import('@/features/billing')).CheckoutPage),
  crowdsource: screen(
    'Wake Word Crowdsourcing',
    async () => (await import('@/features/wake-words')).CrowdsourcePage,
  ),
  pair: screen('Pair a Phone', async () => (await import('@/features/phones')).PairPage),

  // The console's first screen: the entry starts its code and reads before the console's table
  // has loaded (router.tsx startFirstScreen).
  dashboard: screen(
    'Dashboard',
    async () => {
      // Its reads' module loads beside the cards' (preloading one preloads both), so the reads
      // can start the moment the session is known, without waiting for the cards' code.
      void dashboardReads.load().catch(() => undefined);
      return (await import('@/features/dashboard')).DashboardPage;
    },
    {
      // A failed read is the page's own query to report (prefetchQuery keeps the failure).
      prefetch: async (client) => (await dashboardReads.load()).prefetchDashboard(client),
    },
  ),
} satisfies Record<string, ScreenDef>;

export interface RouteDef {
  /** wouter patterns; `:name?` is an optional parameter. */
  paths: readonly string[];
  screen: ScreenDef;
  /** Full-page screens draw their own frame instead of the console's bar and footer. */
  bare?: boolean;
}

/** Spec §2, signed-out routes. Any other path shows the auth screen (see router.tsx). */
export const signedOutRoutes: readonly RouteDef[] = [
  { paths: ['/auth'], screen: screens.auth, bare: true },
  { paths: ['/forgot-password'], screen: screens.forgotPassword },
  { paths: ['/reset-password'], screen: screens.resetPassword },
  { paths: ['/'], screen: screens.landing },
  { paths: ['/help'], screen: screens.help },
  { paths: ['/docs'], screen: screens.docs },
  { paths: ['/pricing'], screen: screens.pricing },
  { paths: ['/checkout'], screen: screens.checkout },
  { paths: ['/privacy'], screen: screens.privacy },
  { paths: ['/terms'], screen: screens.terms },
  { paths: ['/crowdsource/:wakeWord?'], screen: screens.crowdsource },
  { paths: ['/pair'], screen: screens.pair, bare: true },
];

/**
 * The signed-in routes the entry knows, so that opening one starts its code and first reads at
 * once, beside the console's frame (router.tsx). Part of the signed-in table (console-routes.tsx).
 */
export const firstConsoleRoutes: readonly RouteDef[] = [
  { paths: ['/', '/dashboard'], screen: screens.dashboard },
];

/**
 * The route a path opens, if the table has one, matched as the router matches it: wouter's
 * `matchRoute` with the router's parser, by default wouter's own (regexparam), so code that runs
 * before the router renders can use it too.
 */
export function routeAt(
  routes: readonly RouteDef[],
  path: string,
  parser: Parameters<typeof matchRoute>[0] = parse,
): RouteDef | undefined {
  return routes.find((route) => route.paths.some((pattern) => matchRoute(parser, pattern, path)[0]));
}
