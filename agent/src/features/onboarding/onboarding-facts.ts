import type { HaHealth } from '../../contract/status.js';
import type { Satellite } from '../../contract/satellites.js';
import type { WakeWord } from '../../contract/wake-words.js';
import type { LlmStatusProvider } from '../llm-status/index.js';
import type { OnboardingFacts, OnboardingViewer } from './onboarding.service.js';

/**
 * The checklist's facts from the owning features' own read functions, as app.ts hands them over.
 * Only types are imported here: no feature's code runs from this one.
 */
export function onboardingFacts(sources: {
  haHealth: () => Promise<HaHealth>;
  llmProviders: () => LlmStatusProvider[];
  satellites: () => Satellite[];
  wakeWords: (viewer: OnboardingViewer) => WakeWord[];
  flows: (viewer: OnboardingViewer) => number;
  passkeys: (userId: number) => number;
  hasBackup: () => Promise<boolean>;
}): OnboardingFacts {
  return {
    async homeAssistant() {
      const health = await sources.haHealth();
      switch (health.status) {
        case 'not_configured':
          return { connected: false, detail: 'Not set up yet' };
        case 'offline':
          return { connected: false, detail: 'Set up, but the hub cannot reach it' };
        default:
          return {
            connected: true,
            detail: `Connected: ${health.devicesCount} devices, ${health.entitiesCount} entities`,
          };
      }
    },
    async models() {
      const providers = sources.llmProviders();
      // Cloud providers are counted, not probed: the checklist must not call out to the internet.
      const cloudProviders = providers.filter((p) => p.kind === 'cloud').length;
      const local = await Promise.all(
        providers
          .filter((p) => p.kind === 'local')
          .map((p) =>
            p.probe().then(
              (models) => models.length,
              () => 0,
            ),
          ),
      );
      return { localModels: local.reduce((a, b) => a + b, 0), cloudProviders };
    },
    satellites() {
      const list = sources.satellites();
      return {
        total: list.length,
        seen: list.filter((s) => s.status !== 'offline' || s.lastSeen !== null).length,
      };
    },
    wakeWords(viewer) {
      const list = sources.wakeWords(viewer);
      return {
        count: list.length,
        withSamples: list.filter((w) => w.progress.accepted + w.progress.pending > 0).length,
      };
    },
    flows: (viewer) => sources.flows(viewer),
    passkeys: (userId) => sources.passkeys(userId),
    backup: () => sources.hasBackup(),
  };
}
