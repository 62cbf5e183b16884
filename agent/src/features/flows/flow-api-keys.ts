import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX,
  type ApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
} from '../../contract/flows.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import type { AuditRecorder } from '../audit/index.js';
import type { Actor } from './flow-access.js';
import { toApiKey } from './flow-views.js';
import type { FlowsRepository } from './flows.repository.js';

/*
 * The API keys programs run flows with: made, listed and revoked by their owner. Only a key's hash
 * is stored (the key is shown once, when made); running a flow with one is a trigger
 * (flow-triggers.ts, runWithApiKey), which looks the key up by the same hash.
 */

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function createFlowApiKeys(deps: { repo: FlowsRepository; audit?: AuditRecorder }) {
  const { repo } = deps;
  return {
    apiKeys(actor: Actor): ApiKey[] {
      return repo.apiKeys(actor.id).map(toApiKey);
    },

    createApiKey(actor: Actor, input: CreateApiKeyInput): CreatedApiKey {
      const flowIds = [...new Set(input.flowIds)];
      for (const id of flowIds) {
        const flow = repo.get(id);
        // A key runs as its creator: only their own flows can be in its scope.
        if (!flow || flow.ownerId !== actor.id) throw badRequest(`You have no flow with id ${id}`);
      }
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = repo.insertApiKey({
        userId: actor.id,
        name: input.name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 6),
        keyHash: hashKey(key),
        flowIds: JSON.stringify(flowIds),
      });
      deps.audit?.record({
        type: 'api_key_created',
        target: row.name,
        details: { apiKeyId: row.id, flowIds },
      });
      return { apiKey: toApiKey(row), key };
    },

    revokeApiKey(actor: Actor, id: number): ApiKey {
      const row = repo.apiKey(id);
      if (!row || row.userId !== actor.id) throw notFound(`No API key with id ${id}`);
      if (!row.revokedAt) {
        repo.revokeApiKey(id);
        deps.audit?.record({ type: 'api_key_revoked', target: row.name, details: { apiKeyId: id } });
      }
      return toApiKey(repo.apiKey(id)!);
    },
  };
}
