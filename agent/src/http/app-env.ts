import type { BlockList } from 'node:net';
import type { Logger } from '../lib/logger.js';
import type { SessionUser } from '../features/auth/session.service.js';

/** Hono's typed context for every route of the agent. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** Set by the session middleware; null when signed out. */
    user: SessionUser | null;
    /** The raw session cookie value, when one was presented and is valid. */
    sessionToken: string | null;
    /** NEXUS_TRUSTED_PROXIES, when set: forwarded headers count only from these peers (request-info.ts). */
    trustedProxies?: BlockList;
  };
}
