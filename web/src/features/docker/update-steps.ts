import type { ContainerUpdateCheck, ContainerUpdateResult } from '@nexus/agent/contract';

/**
 * Words for container updates (issue 20). The update is one request that answers only at the end,
 * so its step is read from what the engine shows meanwhile: the agent renames the old container to
 * "<name>-nexus-previous-<time>" once the new image is pulled, and keeps it until the new one proves
 * itself.
 */

/** "sha256:0123456789abcdef…" → "0123456789ab", as `docker images` shows image ids. */
export function shortImageId(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}

export const UPDATE_STEPS = {
  pulling: 'Pulling the new image; the container keeps running meanwhile.',
  proving:
    'Recreated with the same settings; waiting until the new container is healthy (or has run for 30 s without a healthcheck).',
} as const;

/** Where a running update is, from the names of the containers the engine lists. */
export function updateStep(name: string, containerNames: readonly string[]): keyof typeof UPDATE_STEPS {
  const kept = `${name}-nexus-previous-`;
  return containerNames.some((n) => n.startsWith(kept)) ? 'proving' : 'pulling';
}

/** The check for a row: by id, else by name (an update gives the container a new id). */
export function checkForContainer(
  checks: readonly ContainerUpdateCheck[] | undefined,
  container: { id: string; name: string },
): ContainerUpdateCheck | undefined {
  if (!checks) return undefined;
  return checks.find((c) => c.containerId === container.id) ?? checks.find((c) => c.name === container.name);
}

/** The result in one sentence. */
export function describeResult(name: string, result: ContainerUpdateResult): { title: string; text: string } {
  const from = shortImageId(result.from);
  const to = shortImageId(result.to);
  if (result.result === 'rolled-back') {
    const reason = (result.reason ?? 'The new container did not prove itself').replace(/[.\s]*$/, '');
    return {
      title: `Update of ${name} rolled back`,
      text: `${reason}. ${name} runs its previous image (${from}) again.`,
    };
  }
  if (result.from === result.to) {
    return {
      title: `${name} is up to date`,
      text: `The registry's image is the one it already runs (${from}).`,
    };
  }
  return { title: `${name} updated`, text: `From image ${from} to ${to}; the old container was removed.` };
}
