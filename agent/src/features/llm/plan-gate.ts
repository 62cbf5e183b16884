import { PLANS, UNLIMITED, type PlanId, type PlanLimits } from '../../contract/subscription.js';
import { HttpError } from '../../lib/http-error.js';

/** What the LLM feature reads from the subscription (its status, as /api/subscription/status gives it). */
export interface PlanSource {
  status(): { plan: PlanId; limits: PlanLimits; usage: { aiMessages: number } };
}

const planName = (plan: PlanId) => PLANS[plan].name;

function secondsToNextMonth(at: number): number {
  const d = new Date(at);
  return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - at) / 1000;
}

/**
 * The plan's limits on AI use: the monthly message quota (the hub's, as the subscription counts
 * it) and the model classes it allows. Messages being answered right now hold a reservation, so
 * a burst of chats cannot overshoot the quota.
 */
export function createPlanGate(source: PlanSource, now: () => number = Date.now) {
  let reserved = 0;

  /** The plan as read once: a chat or a model list asks about several models at a time. */
  function snapshotOf(status: ReturnType<PlanSource['status']>) {
    const { plan, limits } = status;
    return {
      /** Whether the plan lets people use models of this class (limits.aiModels). */
      allows: (modelClass: 'local' | 'cloud') => limits.aiModels.includes(modelClass),
      refusal: (modelClass: 'local' | 'cloud', model: string, providerName: string) =>
        new HttpError(
          403,
          `The ${planName(plan)} plan includes ${limits.aiModels.join(' and ') || 'no'} models only; ${model} on ${providerName} is a ${modelClass} model. Upgrade to Pro to use it.`,
          { plan, allowed: limits.aiModels, modelClass, upgradeTo: 'pro' },
        ),
    };
  }

  return {
    snapshot: () => snapshotOf(source.status()),

    /**
     * Throws 429 when the month's messages are used up; otherwise holds a reservation until
     * `release()` and answers the plan's model questions from the same reading.
     */
    reserveMessage() {
      const status = source.status();
      const { plan, limits, usage } = status;
      if (limits.aiMessages !== UNLIMITED && usage.aiMessages + reserved >= limits.aiMessages) {
        throw new HttpError(
          429,
          `This hub has used all ${limits.aiMessages} AI messages of the ${planName(plan)} plan this month. Upgrade to Pro for unlimited messages.`,
          { plan, limit: limits.aiMessages, used: usage.aiMessages, upgradeTo: 'pro' },
          { 'Retry-After': String(Math.max(1, Math.ceil(secondsToNextMonth(now())))) },
        );
      }
      reserved++;
      let released = false;
      return {
        ...snapshotOf(status),
        release: () => {
          if (released) return;
          released = true;
          reserved--;
        },
      };
    },

    /** Throws 403 when the hub already has as many models as the plan allows (limits.maxModels). */
    checkModelCount(installed: number) {
      const { plan, limits } = source.status();
      if (limits.maxModels !== UNLIMITED && installed >= limits.maxModels) {
        throw new HttpError(
          403,
          `The ${planName(plan)} plan allows ${limits.maxModels} model${limits.maxModels === 1 ? '' : 's'} on the hub. Delete one first, or upgrade to Pro for more.`,
          { plan, limit: limits.maxModels, installed, upgradeTo: 'pro' },
        );
      }
    },
  };
}

export type PlanGate = ReturnType<typeof createPlanGate>;
