/**
 * The address that opens Nexus Deploy with one catalog app's deploy dialog already open: the
 * "one action" other screens link to when a service they need is missing (issue 21).
 */
export function deployAppHref(appId: string): string {
  return `/nexus-deploy?app=${encodeURIComponent(appId)}`;
}

export const DEPLOY_OLLAMA_HREF = deployAppHref('ollama');
