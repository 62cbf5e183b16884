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
