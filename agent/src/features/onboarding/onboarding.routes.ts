import { Hono } from 'hono';
import type { Onboarding } from '../../contract/onboarding.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import type { OnboardingService } from './onboarding.service.js';

/** `/api/onboarding`: the first-run checklist, for any signed-in user. */
export function onboardingRoutes(onboarding: OnboardingService) {
  return new Hono<AppEnv>().get('/', requireUser, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json((await onboarding.checklist(c.get('user'))) satisfies Onboarding);
  });
}
