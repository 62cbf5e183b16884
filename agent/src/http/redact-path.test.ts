import { describe, expect, it } from 'vitest';
import { redactPath } from './redact-path.js';

describe('redactPath', () => {
  it('replaces the secret of webhook paths and keeps the flow id and /test', () => {
    expect(redactPath('/api/hooks/12/abcDEF_-123')).toBe('/api/hooks/12/[redacted]');
    expect(redactPath('/api/hooks/12/abcDEF_-123/test')).toBe('/api/hooks/12/[redacted]/test');
    // Whatever was asked for is what gets logged: odd case, doubled slashes, escapes.
    expect(redactPath('//API/Hooks//3/s3cr%2Fet%20x/test')).toBe('//API/Hooks//3/[redacted]/test');
    expect(redactPath('/api/hooks/5/[redacted]')).toBe('/api/hooks/5/[redacted]');
  });

  it('leaves other paths alone', () => {
    for (const path of ['/api/flows/3', '/api/hooks/5', '/api/hooks', '/api/nexus/status']) {
      expect(redactPath(path)).toBe(path);
    }
  });
});
