import { expect } from 'vitest';
import type { Client } from './http.js';

let counter = 0;

/** An address no other test of this process uses. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}@example.com`;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/**
 * Registers a new account through the API and leaves the client signed in as it. The first
 * account an agent ever sees becomes superadmin.
 */
export async function signUp(
  client: Client,
  opts: { name?: string; email?: string; password?: string } = {},
): Promise<{ id: number; email: string; password: string; role: string }> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? TEST_PASSWORD;
  const res = await client.post('/api/auth/register', { name: opts.name ?? 'Test User', email, password });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.user.id, email, password, role: res.json.user.role };
}
