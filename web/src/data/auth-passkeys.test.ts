import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@/lib/request';
import { isPasskeyCancelled, isReauthRequired, passkeyErrorMessage } from './auth';

const named = (name: string) => Object.assign(new Error('x'), { name });

describe('passkey errors', () => {
  it('a dismissed or replaced prompt is a cancellation, not an error', () => {
    expect(isPasskeyCancelled(named('NotAllowedError'))).toBe(true);
    expect(isPasskeyCancelled(named('AbortError'))).toBe(true);
    expect(isPasskeyCancelled(named('SecurityError'))).toBe(false);
    expect(isPasskeyCancelled(new ApiRequestError(401, 'Unauthorized', '{"message":"x"}'))).toBe(false);
  });

  it('recognises the 401 that asks for re-authentication, and only that one', () => {
    const body = JSON.stringify({ message: 'Confirm it is you', details: { code: 'reauth_required' } });
    expect(isReauthRequired(new ApiRequestError(401, 'Unauthorized', body))).toBe(true);
    expect(isReauthRequired(new ApiRequestError(401, 'Unauthorized', '{"message":"Not signed in"}'))).toBe(
      false,
    );
    expect(isReauthRequired(new ApiRequestError(403, 'Forbidden', body))).toBe(false);
    expect(isReauthRequired(new ApiRequestError(401, 'Unauthorized', '<html>'))).toBe(false);
  });

  it('explains a browser refusing the address as a relying party', () => {
    expect(passkeyErrorMessage(named('SecurityError'))).toMatch(/hub’s name/);
    expect(
      passkeyErrorMessage(new ApiRequestError(401, 'Unauthorized', '{"message":"Passkey sign-in failed"}')),
    ).toBe('Passkey sign-in failed');
  });
});
