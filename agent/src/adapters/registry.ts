import type { OutboundGuard } from './outbound-guard.js';

/**
 * Container registries, asked directly over the OCI distribution API (only when the engine cannot
 * ask for us: Podman's Docker-compatible API has no `GET /distribution/{name}/json`). Only the
 * manifest's digest for a tag is read (a HEAD), nothing is pulled. Every connection passes the
 * project's outbound guard: a registry on the home network or on this hub is refused unless an admin
 * allowed its address (Settings, outbound allow-list), as for every other outbound request.
 */

/** An image reference split as the engine reads it ("nginx" is docker.io/library/nginx:latest). */
export interface ImageRef {
  /** Registry host[:port], e.g. "docker.io", "ghcr.io", "127.0.0.1:5000". */
  registry: string;
  /** Repository path inside the registry, e.g. "library/nginx". */
  repository: string;
  tag: string | null;
  digest: string | null;
}

const DOCKER_HUB = 'docker.io';

/** Parses an image reference; null when it is not one (e.g. an image id). */
export function parseImageRef(ref: string): ImageRef | null {
  let rest = ref.trim();
  if (!rest || /^(sha256:)?[a-f0-9]{64}$/.test(rest)) return null;
  let digest: string | null = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | null = null;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const slash = rest.indexOf('/');
  const first = slash >= 0 ? rest.slice(0, slash) : '';
  // The first part names a registry when it looks like a host (a dot, a port, or localhost).
  const hasRegistry = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const registry = hasRegistry ? first : DOCKER_HUB;
  let repository = hasRegistry ? rest.slice(slash + 1) : rest;
  if (registry === DOCKER_HUB && !repository.includes('/')) repository = `library/${repository}`;
  if (!repository || !/^[a-z0-9]+([._-]+[a-z0-9]+)*(\/[a-z0-9]+([._-]+[a-z0-9]+)*)*$/.test(repository))
    return null;
  // A reference without tag or digest means :latest to the engine.
  if (!tag && !digest) tag = 'latest';
  return { registry, repository, tag, digest };
}

/** The repository as RepoDigests spell it ("docker.io/library/nginx"), for comparing. */
export function repoName(ref: ImageRef): string {
  return `${ref.registry}/${ref.repository}`;
}

/** Where the registry's API lives; Docker Hub's API host differs from its name. */
function apiBase(registry: string): string {
  if (registry === DOCKER_HUB) return 'https://registry-1.docker.io';
  // Loopback and LAN registries usually speak plain HTTP (the engine needs them marked insecure too).
  const host = registry.replace(/:\d+$/, '');
  const plain = host === 'localhost' || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  return `${plain ? 'http' : 'https'}://${registry}`;
}

/** Why a registry could not answer, in words the owner reads on the containers screen. */
export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

const MANIFEST_ACCEPT = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

const TIMEOUT_MS = 15_000;

/** `Bearer realm="…",service="…",scope="…"` into its parameters. */
export function parseBearerChallenge(header: string): Record<string, string> | null {
  if (!/^bearer\s/i.test(header)) return null;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/([a-z_]+)="([^"]*)"/gi)) params[m[1]!.toLowerCase()] = m[2]!;
  return params.realm ? params : null;
}

export interface RegistryAdapter {
  /**
   * Throws RegistryError unless the outbound guard lets this hub reach the registry; also asked
   * before the engine is asked for us, so the engine is never sent where the guard refuses.
   */
  checkAllowed(ref: ImageRef): Promise<void>;
  /** The digest the registry serves now for the reference's tag; throws RegistryError with the reason. */
  tagDigest(ref: ImageRef): Promise<string>;
}

export function createRegistryAdapter(deps: { guard: OutboundGuard; timeoutMs?: number }): RegistryAdapter {
  const timeoutMs = deps.timeoutMs ?? TIMEOUT_MS;

  async function request(url: URL, headers: Record<string, string>, method: 'HEAD' | 'GET') {
    try {
      return await deps.guard.fetch(
        url,
        { method, headers, signal: AbortSignal.timeout(timeoutMs) },
        async (res) => ({
          status: res.status,
          headers: res.headers,
          body: method === 'GET' ? await res.text() : '',
        }),
      );
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (e.name === 'OutboundRefusedError') throw new RegistryError(e.message);
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw new RegistryError(`The registry ${url.host} did not answer in time`);
      }
      const why = e.cause?.code ?? e.cause?.message ?? e.message;
      throw new RegistryError(`The registry ${url.host} could not be reached (${why})`);
    }
  }

  /** The anonymous token flow (Docker Hub, ghcr.io): the realm named by the 401 hands out a pull token. */
  async function anonymousToken(challenge: string, ref: ImageRef): Promise<string> {
    const params = parseBearerChallenge(challenge);
    if (!params)
      throw new RegistryError(`The registry ${ref.registry} asks for credentials this hub does not have`);
    let realm: URL;
    try {
      realm = new URL(params.realm!);
    } catch {
      throw new RegistryError(`The registry ${ref.registry} named an invalid token address`);
    }
    if (params.service) realm.searchParams.set('service', params.service);
    realm.searchParams.set('scope', params.scope ?? `repository:${ref.repository}:pull`);
    const res = await request(realm, { accept: 'application/json' }, 'GET');
    if (res.status !== 200) {
      throw new RegistryError(
        `The registry ${ref.registry} refused an anonymous pull token (HTTP ${res.status}); a private image needs credentials`,
      );
    }
    try {
      const body = JSON.parse(res.body) as { token?: string; access_token?: string };
      const token = body.token ?? body.access_token;
      if (token) return token;
    } catch {
      // fall through
    }
    throw new RegistryError(`The registry ${ref.registry} answered no token`);
  }

  return {
    async checkAllowed(ref) {
      const url = new URL(apiBase(ref.registry));
      try {
        await deps.guard.resolve(url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
      } catch (err) {
        throw new RegistryError((err as Error).message);
      }
    },

    async tagDigest(ref) {
      if (!ref.tag) throw new RegistryError('The image has no tag to compare');
      const url = new URL(
        `${apiBase(ref.registry)}/v2/${ref.repository}/manifests/${encodeURIComponent(ref.tag)}`,
      );
      const headers: Record<string, string> = { accept: MANIFEST_ACCEPT };
      let res = await request(url, headers, 'HEAD');
      const challenge = res.headers.get('www-authenticate');
      if (res.status === 401 && challenge) {
        headers.authorization = `Bearer ${await anonymousToken(challenge, ref)}`;
        res = await request(url, headers, 'HEAD');
      }
      if (res.status === 401 || res.status === 403) {
        throw new RegistryError(
          `The registry ${ref.registry} refused access to ${ref.repository} (HTTP ${res.status}); a private image needs credentials`,
        );
      }
      if (res.status === 404) {
        throw new RegistryError(`The registry ${ref.registry} has no ${ref.repository}:${ref.tag}`);
      }
      if (res.status === 429)
        throw new RegistryError(`The registry ${ref.registry} limits requests right now (HTTP 429)`);
      if (res.status !== 200)
        throw new RegistryError(`The registry ${ref.registry} answered HTTP ${res.status}`);
      const digest = res.headers.get('docker-content-digest');
      if (!digest || !/^sha256:[a-f0-9]{64}$/.test(digest)) {
        throw new RegistryError(`The registry ${ref.registry} did not name the manifest's digest`);
      }
      return digest;
    },
  };
}
