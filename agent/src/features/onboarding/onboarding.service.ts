import type { Onboarding, OnboardingItem } from '../../contract/onboarding.js';

/** Who is looking: some steps (flows, 2FA) are about the signed-in user. */
export interface OnboardingViewer {
  id: number;
  role: 'user' | 'admin' | 'superadmin';
  totpEnabled: boolean;
}

/**
 * The facts, each a small read-only function that app.ts builds from the feature that owns it
 * (features do not import each other). A fact that throws counts as not done.
 */
export interface OnboardingFacts {
  /** Home Assistant's connection, in words, and whether it is up. */
  homeAssistant(): Promise<{ connected: boolean; detail: string }>;
  /** Local models pulled and cloud providers configured. */
  models(): Promise<{ localModels: number; cloudProviders: number }>;
  /** Satellites that are online now or were ever seen. */
  satellites(): { seen: number; total: number };
  /** Wake words and the most accepted samples any of them has. */
  wakeWords(viewer: OnboardingViewer): { count: number; withSamples: number };
  /** Flows the viewer can see. */
  flows(viewer: OnboardingViewer): number;
  /** Passkeys the viewer has. */
  passkeys(userId: number): number;
  /** Whether a backup file exists or the last backup run succeeded. */
  backup(): Promise<boolean>;
}

/** A fact may wait on a network probe (Ollama, Home Assistant); the checklist does not wait long. */
const PROBE_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.catch(() => fallback),
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), PROBE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The first-run checklist of /onboarding, read from the hub's real state on every request. */
export function createOnboardingService(facts: OnboardingFacts) {
  return {
    async checklist(viewer: OnboardingViewer): Promise<Onboarding> {
      const [ha, models] = await Promise.all([
        withTimeout(facts.homeAssistant(), { connected: false, detail: 'Home Assistant did not answer' }),
        withTimeout(facts.models(), { localModels: 0, cloudProviders: 0 }),
      ]);
      const backup = await withTimeout(facts.backup(), false);
      const satellites = safely(() => facts.satellites(), { seen: 0, total: 0 });
      const wakeWords = safely(() => facts.wakeWords(viewer), { count: 0, withSamples: 0 });
      const flows = safely(() => facts.flows(viewer), 0);
      const passkeys = safely(() => facts.passkeys(viewer.id), 0);

      const modelDone = models.localModels > 0 || models.cloudProviders > 0;
      const secondFactors = [
        viewer.totpEnabled ? '2FA is on' : null,
        passkeys ? plural(passkeys, 'passkey') : null,
      ]
        .filter(Boolean)
        .join(', ');
      const items: OnboardingItem[] = [
        {
          id: 'home-assistant',
          title: 'Connect Home Assistant',
          done: ha.connected,
          available: true,
          detail: ha.detail,
          href: '/ha-connection-setup',
        },
        {
          id: 'model',
          title: 'Pull a language model',
          done: modelDone,
          available: true,
          detail: modelDone
            ? [
                models.localModels ? `${plural(models.localModels, 'local model')} in Ollama` : null,
                models.cloudProviders ? plural(models.cloudProviders, 'cloud provider') : null,
              ]
                .filter(Boolean)
                .join(', ')
            : 'No model in Ollama and no cloud provider yet',
          href: '/ollama',
        },
        {
          id: 'satellite',
          title: 'Add a voice satellite',
          done: satellites.seen > 0,
          available: true,
          detail:
            satellites.total === 0
              ? 'No satellite yet'
              : `${plural(satellites.seen, 'satellite')} seen of ${satellites.total}`,
          href: '/satellite-management',
        },
        {
          id: 'wake-word',
          title: 'Record a wake word',
          done: wakeWords.withSamples > 0,
          available: true,
          detail:
            wakeWords.count === 0
              ? 'No wake word yet'
              : wakeWords.withSamples > 0
                ? `${plural(wakeWords.withSamples, 'wake word')} with samples`
                : `${plural(wakeWords.count, 'wake word')}, no samples yet`,
          href: '/wake-words',
        },
        {
          id: 'flow',
          title: 'Create a flow',
          done: flows > 0,
          available: true,
          detail: flows > 0 ? plural(flows, 'flow') : 'No flow yet',
          href: '/flowforge',
        },
        {
          id: 'second-factor',
          title: 'Turn on 2FA or add a passkey',
          done: secondFactors !== '',
          available: true,
          detail: secondFactors || 'Your account is protected by its password only',
          href: '/settings',
        },
        {
          id: 'backup',
          title: 'Make a backup',
          done: backup,
          available: true,
          detail: backup ? 'A backup of the hub exists' : 'No backup of the hub yet',
          href: '/nexus-management#backups',
        },
      ];
      const available = items.filter((item) => item.available);
      return { items, done: available.filter((item) => item.done).length, total: available.length };
    },
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
