import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { createLogger } from '../../lib/logger.js';
import type { MailMessage } from '../../adapters/mailer.js';
import { HttpError } from '../../lib/http-error.js';
import { createAuthRepository } from './auth.repository.js';
import { RESET_TOKEN_TTL_MS, createPasswordResetService } from './password-reset.service.js';

let handle: DbHandle;
let dir: string;
let clock: number;
let sent: MailMessage[];
let resets: { email: string; password: string }[];

function service(overrides: { mailer?: boolean; publicUrl?: string | null } = {}) {
  return createPasswordResetService({
    db: handle.db,
    log: createLogger('silent'),
    auth: {
      resetPassword: async (email, password) => {
        resets.push({ email, password });
        return createAuthRepository(handle.db).findByEmail(email)!;
      },
    },
    mailer:
      overrides.mailer === false
        ? null
        : {
            send: async (message) => {
              sent.push(message);
            },
          },
    publicUrl: overrides.publicUrl === undefined ? 'http://hub.lan:8080/' : overrides.publicUrl,
    now: () => clock,
  });
}

const tokenOf = (message: MailMessage) => /token=([A-Za-z0-9_-]+)/.exec(message.text)![1]!;
const flush = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-reset-'));
  handle = openDatabase(dir);
  clock = Date.UTC(2025, 0, 1);
  sent = [];
  resets = [];
  createAuthRepository(handle.db).create({ name: 'Ada', email: 'ada@example.com', passwordHash: 'x' });
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('password reset service', () => {
  it('is off without a mailer or without a public URL to link to', () => {
    expect(service({ mailer: false }).config()).toEqual({ emailEnabled: false });
    expect(service({ publicUrl: null }).config()).toEqual({ emailEnabled: false });
    expect(() => service({ mailer: false }).request('ada@example.com', '1.2.3.4')).toThrow(HttpError);
  });

  it('links to the configured address and keeps only a hash of the token', async () => {
    service().request('ada@example.com', '1.2.3.4');
    await flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('http://hub.lan:8080/reset-password?token=');
    const token = tokenOf(sent[0]!);
    const stored = handle.sqlite.prepare('select token_hash from password_reset_tokens').pluck().all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain(token);
  });

  it('expires a link after 1 hour', async () => {
    const resetsService = service();
    resetsService.request('ada@example.com', '1.2.3.4');
    await flush();
    clock += RESET_TOKEN_TTL_MS;
    await expect(resetsService.confirm(tokenOf(sent[0]!), 'new password')).rejects.toMatchObject({
      status: 400,
    });
    expect(resets).toEqual([]);
  });

  it('works just inside the hour, once', async () => {
    const resetsService = service();
    resetsService.request('ada@example.com', '1.2.3.4');
    await flush();
    clock += RESET_TOKEN_TTL_MS - 1;
    await resetsService.confirm(tokenOf(sent[0]!), 'new password');
    expect(resets).toEqual([{ email: 'ada@example.com', password: 'new password' }]);
    await expect(resetsService.confirm(tokenOf(sent[0]!), 'other password')).rejects.toMatchObject({
      status: 400,
    });
  });

  it('mails an account at most 3 times an hour, silently', async () => {
    const resetsService = service();
    for (let i = 0; i < 5; i++) resetsService.request('ada@example.com', `10.0.0.${i}`);
    await flush();
    expect(sent).toHaveLength(3);
    clock += 60 * 60_000;
    resetsService.request('ada@example.com', '10.0.0.9');
    await flush();
    expect(sent).toHaveLength(4);
  });

  it('answers 429 to one address asking too often, known accounts or not', () => {
    const resetsService = service();
    for (let i = 0; i < 10; i++) resetsService.request(`someone${i}@example.com`, '1.2.3.4');
    expect(() => resetsService.request('ada@example.com', '1.2.3.4')).toThrow(
      expect.objectContaining({ status: 429 }),
    );
  });
});
