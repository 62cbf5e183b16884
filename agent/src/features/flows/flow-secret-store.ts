import { randomBytes } from 'node:crypto';
import type { FlowSecret, Stage } from '../../contract/flows.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { secretKey } from './flow-runner.js';
import { flowSecretKey, flowSecretName, isFlowSecretKey } from './flow-secrets.js';

/*
 * Where a flow's secrets are sealed and opened. A flow keeps its secret header values and named
 * secrets in one sealed map (the keys are explained in flow-secrets.ts) and its webhook's path
 * secret sealed on its own; the stored stages never hold a value. This module is the only one
 * that turns definitions into that form and back into what the builder may see (names and
 * "has a value" flags, never values), so a secret cannot leak through a view written elsewhere.
 */

/** The flow's named secrets as the builder sees them: names and whether each has a value. */
export function secretNames(secrets: Map<string, string>): FlowSecret[] {
  return [...secrets]
    .filter(([key]) => isFlowSecretKey(key))
    .map(([key, value]) => ({ name: flowSecretName(key), value: '', hasValue: value !== '' }));
}

/** Secret headers as the builder sees them: no value, and whether one is stored. */
export function withSecretFlags(stages: Stage[], secrets: Map<string, string>): Stage[] {
  return stages.map((stage) => {
    if (stage.kind !== 'http_request') return stage;
    const headers = stage.config.headers.map((h) =>
      h.secret ? { ...h, value: '', hasValue: secrets.has(secretKey(stage.id, h.name)) } : h,
    );
    return { ...stage, config: { ...stage.config, headers } };
  });
}

/** The named secrets by name, as templates read them ({{secrets.NAME}}) during a run. */
export function namedSecretValues(secrets: Map<string, string>): Record<string, string> {
  return Object.fromEntries(
    [...secrets].filter(([key]) => isFlowSecretKey(key)).map(([key, v]) => [flowSecretName(key), v]),
  );
}

export function createFlowSecretStore(box: SecretBox) {
  return {
    open(sealed: string | null): Map<string, string> {
      if (!sealed) return new Map();
      return new Map(Object.entries(JSON.parse(box.open(sealed)) as Record<string, string>));
    },

    /**
     * Moves secret values out of the definition into the sealed map: secret header values, and the
     * flow's named secrets (declared ones without a value are kept as empty, e.g. after an import).
     * An empty value keeps the one stored before under the same key, so the builder can save
     * without ever having seen it.
     */
    separate(
      stages: Stage[],
      previous: Map<string, string>,
      flowSecrets: FlowSecret[] | undefined,
    ): { stages: Stage[]; secretsSealed: string | null } {
      const kept: Record<string, string> = {};
      // Not given: the stored named secrets stay, values and all.
      const declared =
        flowSecrets ??
        [...previous]
          .filter(([key]) => isFlowSecretKey(key))
          .map(([key]) => ({ name: flowSecretName(key), value: '' }));
      for (const secret of declared) {
        const key = flowSecretKey(secret.name);
        kept[key] = secret.value !== '' ? secret.value : (previous.get(key) ?? '');
      }
      const stored = stages.map((stage) => {
        if (stage.kind !== 'http_request') return stage;
        const headers = stage.config.headers.map((header) => {
          if (!header.secret) return { name: header.name, value: header.value, secret: false };
          const key = secretKey(stage.id, header.name);
          const value = header.value !== '' ? header.value : previous.get(key);
          if (value !== undefined) kept[key] = value;
          return { name: header.name, value: '', secret: true };
        });
        return { ...stage, config: { ...stage.config, headers } };
      });
      return {
        stages: stored,
        secretsSealed: Object.keys(kept).length ? box.seal(JSON.stringify(kept)) : null,
      };
    },

    /** The path segment of the flow's webhook URL. */
    webhookSecret(flow: { webhookSecretSealed: string }): string {
      return box.open(flow.webhookSecretSealed);
    },

    /** A new flow's webhook secret, sealed. */
    newWebhookSecret(): string {
      return box.seal(randomBytes(24).toString('base64url'));
    },
  };
}

export type FlowSecretStore = ReturnType<typeof createFlowSecretStore>;
