import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  request as playwrightRequest,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { createdInviteSchema } from '../../agent/src/contract/index.js';
import type { RunningAgent } from '../support/agent.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const PASSWORD = 'correct-horse-battery';

export interface Account {
  name: string;
  email: string;
  cookies: Awaited<ReturnType<BrowserContext['cookies']>>;
}

/** Registers an account through the API; its session cookie can then sign a browser context in. */
export async function createAccount(
  agent: RunningAgent,
  opts: { name?: string; role?: 'user' | 'admin' | 'superadmin' } = {},
): Promise<Account> {
  const name = opts.name ?? 'Grace Hopper';
  const email = `shell-${randomUUID().slice(0, 8)}@example.com`;
  const api = await playwrightRequest.newContext({ baseURL: agent.url });
  const res = await api.post('/api/auth/register', { data: { name, email, password: PASSWORD } });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  const state = await api.storageState();
  await api.dispose();
  // The first account of an agent is superadmin, later ones users: tests set the role they need
  // with the owner's command line, as an owner would. A standing superadmin lets any account be
  // demoted, since the hub refuses to lose its last one.
  if (opts.role) {
    await ensureStandingSuperadmin(agent);
    setRole(agent, email, opts.role);
  }
  return { name, email, cookies: state.cookies };
}

const STANDING_SUPERADMIN = 'standing-owner@example.com';

async function ensureStandingSuperadmin(agent: RunningAgent) {
  const api = await playwrightRequest.newContext({ baseURL: agent.url });
  const res = await api.post('/api/auth/register', {
    data: { name: 'Standing Owner', email: STANDING_SUPERADMIN, password: PASSWORD },
  });
  await api.dispose();
  // 409: made earlier by this worker.
  if (res.status() !== 201 && res.status() !== 409) throw new Error(`register failed: ${res.status()}`);
  setRole(agent, STANDING_SUPERADMIN, 'superadmin');
}

export function setRole(agent: RunningAgent, email: string, role: 'user' | 'admin' | 'superadmin') {
  execFileSync(
    process.execPath,
    [path.join(repoRoot, 'agent/dist/cli.js'), 'users:set-role', '--email', email, '--role', role],
    { env: { PATH: process.env.PATH, NEXUS_DATA_DIR: agent.dataDir }, stdio: 'pipe' },
  );
}

/**
 * A one-time invite made with an admin's signed-in request context, as the owner makes one on User
 * Management: people after the first join a hub with one.
 */
export async function createInviteCode(
  admin: APIRequestContext,
  role: 'user' | 'admin' = 'user',
): Promise<string> {
  const res = await admin.post('/api/invites', { data: { role, expiresInHours: 1 } });
  if (res.status() !== 201) throw new Error(`invite failed: ${res.status()} ${await res.text()}`);
  return createdInviteSchema.parse(await res.json()).code;
}

export async function signIn(page: Page, account: Account) {
  await page.context().addCookies(account.cookies);
}

/** The desktop top bar (the mobile menu's copy is hidden at this width). */
export function topBar(page: Page) {
  return page.locator('header');
}
