import { describe, expect, it } from 'vitest';
import {
  flowSecretKey,
  flowSecretName,
  isFlowSecretKey,
  requireSecrets,
  secretMasker,
} from './flow-secrets.js';

describe('flow secrets', () => {
  it('keys named secrets apart from secret headers', () => {
    expect(isFlowSecretKey(flowSecretKey('API_TOKEN'))).toBe(true);
    expect(isFlowSecretKey('call-api\nauthorization')).toBe(false);
    expect(flowSecretName(flowSecretKey('API_TOKEN'))).toBe('API_TOKEN');
  });

  it('masks every value at any depth, the longest first, and leaves other data alone', () => {
    const mask = secretMasker(['s3cr3t-token', 's3cr3t-token-extended', 'abc', '']);
    expect(
      mask({
        url: 'https://api.example/?key=s3cr3t-token-extended',
        headers: [{ name: 'Authorization', value: 'Bearer s3cr3t-token' }],
        count: 3,
        ok: true,
        none: null,
        short: 'abc stays: too short to be searched for',
      }),
    ).toEqual({
      url: 'https://api.example/?key=••••',
      headers: [{ name: 'Authorization', value: 'Bearer ••••' }],
      count: 3,
      ok: true,
      none: null,
      short: 'abc stays: too short to be searched for',
    });
    expect(secretMasker([])('untouched')).toBe('untouched');
  });

  it('fails a stage that names a secret without a value, or one the flow does not have', () => {
    const stage = { config: { url: 'https://x/{{ secrets.TOKEN }}', body: '{{secrets.OTHER}}' } };
    expect(() => requireSecrets(stage, { TOKEN: 'value', OTHER: 'v2' })).not.toThrow();
    expect(() => requireSecrets(stage, { TOKEN: 'value', OTHER: '' })).toThrow(
      "The secret OTHER has no value: set it under the flow's Secrets",
    );
    expect(() => requireSecrets(stage, { OTHER: 'v2' })).toThrow('The secret TOKEN has no value');
    expect(() => requireSecrets({ config: { body: '{{secrets.constructor}}' } }, {})).toThrow(
      'The secret constructor has no value',
    );
  });
});

describe('secret masking of encoded forms', () => {
  // A secret with the characters that URLs and forms escape: & / + space # ? % and a non-ASCII letter.
  const secret = 'p&ss/w rd+1#?%é';

  it('masks the secret as URLs, query strings, form bodies and JSON text write it', () => {
    const mask = secretMasker([secret]);
    const url = new URL('https://api.example/');
    url.pathname = `/hook/${secret}`;
    url.search = `?raw=${secret}`;
    const forms = [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      encodeURI(secret),
      new URLSearchParams({ token: secret }).toString(),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      url.href,
      JSON.stringify({ echoed: secret }),
    ];
    for (const text of forms) {
      const masked = mask({ text }) as { text: string };
      expect(masked.text, text).toContain('••••');
      for (const leak of ['p&ss', 'ss/w', 'p%26ss', 'w%20rd', 'w+rd', 'rd+1', 'rd%2B1']) {
        expect(masked.text, text).not.toContain(leak);
      }
    }
    expect(mask('https://api.example/?token=' + encodeURIComponent(secret) + '&page=2')).toBe(
      'https://api.example/?token=••••&page=2',
    );
  });

  it('leaves text without the secret untouched, encoded look-alikes included', () => {
    const mask = secretMasker([secret]);
    expect(mask('p%26ss is half of it; %2F alone too')).toBe('p%26ss is half of it; %2F alone too');
  });
});
