import { expect } from 'vitest';
import { Client } from './http.js';

let counter = 0;

/** An address no other test of this process uses. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}@example.com`;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/** The first account each agent (by URL) saw through signUp: the owner who invites the rest. */
const owners = new Map<string, { email: string; password: string; session: Client | null }>();

/** Tells signUp who owns the agent at `baseUrl` when a test made the first account itself. */
export function rememberOwner(baseUrl: string, owner: { email: string; password: string }): void {
  owners.set(baseUrl, { ...owner, session: null });
}

/** The owner's own session, apart from the test's clients (which may sign out or be replaced). */
async function ownerSession(baseUrl: string, fresh = false): Promise<Client | null> {
  const owner = owners.get(baseUrl);
  if (!owner) return null;
  if (owner.session && !fresh) return owner.session;
  const session = new Client(baseUrl);
  const res = await session.post('/api/auth/login', { email: owner.email, password: owner.password });
  expect(res.status, `the helper signs the owner in to invite: ${res.text}`).toBe(200);
  owner.session = session;
  return session;
}

/**
 * An invite as a household's owner makes it (POST /api/invites); `by` is an admin's client,
 * by default the agent's first account signed up through signUp.
 */
export async function createInvite(
  baseUrl: string,
  opts: { by?: Client; role?: 'user' | 'admin'; expiresInHours?: number } = {},
): Promise<{ id: number; code: string; url: string; expiresAt: string }> {
  const body = { role: opts.role ?? 'user', expiresInHours: opts.expiresInHours ?? 1 };
  let admin = opts.by ?? (await ownerSession(baseUrl));
  if (!admin) throw new Error(`no owner known for ${baseUrl}: pass an admin's client to invite`);
  let res = await admin.post('/api/invites', body);
  if (res.status === 401 && !opts.by) {
    // The test signed the owner's sessions out (password change, sign-out everywhere): sign in again.
    admin = (await ownerSession(baseUrl, true))!;
    res = await admin.post('/api/invites', body);
  }
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/**
 * Registers a new account through the API and leaves the client signed in as it. The first
 * account an agent ever sees becomes superadmin (the owner); later ones register, as in a real
 * household, with an invite the owner (or `invitedBy`, an admin's client) creates first, and get
 * its role (`role`, default user). `inviteCode` registers with that code instead; `null` with none.
 */
export async function signUp(
  client: Client,
  opts: {
    name?: string;
    email?: string;
    password?: string;
    invitedBy?: Client;
    role?: 'user' | 'admin';
    inviteCode?: string | null;
  } = {},
): Promise<{ id: number; email: string; password: string; role: string }> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? TEST_PASSWORD;
  let inviteCode = opts.inviteCode ?? undefined;
  if (opts.inviteCode === undefined && (opts.invitedBy || owners.has(client.baseUrl))) {
    inviteCode = (await createInvite(client.baseUrl, { by: opts.invitedBy, role: opts.role })).code;
  }
  const res = await client.post('/api/auth/register', {
    name: opts.name ?? 'Test User',
    email,
    password,
    ...(inviteCode ? { inviteCode } : {}),
  });
  expect(res.status, res.text).toBe(201);
  if (res.json.user.role === 'superadmin' && !owners.has(client.baseUrl)) {
    owners.set(client.baseUrl, { email, password, session: null });
  }
  return { id: res.json.user.id, email, password, role: res.json.user.role };
}
