import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '@/lib/request';
import { fetchCurrentUser, isExistingAccount, isTwoFactorRequired, login } from './auth';

const user = {
  id: 1,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'superadmin',
  twoFactorEnabled: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  disabled: false,
};

function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchCurrentUser (spec §4)', () => {
  it('returns the signed-in user', async () => {
    answer(200, user);
    expect(await fetchCurrentUser()).toEqual(user);
  });

  it('treats 401 and 404 as signed out', async () => {
    answer(401, { message: 'Not signed in' });
    expect(await fetchCurrentUser()).toBeNull();
    answer(404, { message: 'No such endpoint' });
    expect(await fetchCurrentUser()).toBeNull();
  });

  it('keeps any other failure as an error', async () => {
    answer(500, { message: 'Internal error (reference abc)' });
    await expect(fetchCurrentUser()).rejects.toBeInstanceOf(ApiRequestError);
    answer(429, { message: 'Too many requests' });
    await expect(fetchCurrentUser()).rejects.toThrow('429: {"message":"Too many requests"}');
  });
});

describe('login', () => {
  it("returns the answer's user field", async () => {
    answer(200, { user });
    expect(await login({ email: user.email, password: 'pw' })).toEqual(user);
  });
});

describe('error classification', () => {
  it('spots the two-factor step by substring of "<status>: <body>"', () => {
    expect(
      isTwoFactorRequired(new ApiRequestError(401, 'Unauthorized', '{"message":"2FA code required"}')),
    ).toBe(true);
    expect(isTwoFactorRequired(new Error('401: {"message":"Invalid email or password"}'))).toBe(false);
    expect(isTwoFactorRequired('2FA code required')).toBe(false);
  });

  it('spots an existing account', () => {
    expect(
      isExistingAccount(
        new ApiRequestError(409, 'Conflict', '{"message":"An account with this email already exists"}'),
      ),
    ).toBe(true);
    expect(isExistingAccount(new Error('400: {"message":"Invalid input"}'))).toBe(false);
  });
});
