import { describe, expect, it } from 'vitest';
import { redactLogLine, redactText, redactValue } from './redact.js';

describe('redaction for the diagnostics bundle', () => {
  it('replaces credentials in free text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJoYSJ9.c2lnbmF0dXJlc2lnbmF0dXJl';
    const text = [
      'Authorization: Bearer abc.def-123',
      `token ${jwt}`,
      'satellite nxsat_AbCdEfGhIjKlMnOp used',
      'GET http://admin:hunter2@192.168.1.5:8123/api',
      'url /callback?code=1&token=s3cret&x=2',
      'api_key=sk-live-1234567890',
    ].join('\n');
    const out = redactText(text);
    for (const secret of [
      'abc.def-123',
      jwt,
      'nxsat_AbCdEfGhIjKlMnOp',
      'hunter2',
      's3cret',
      'sk-live-1234567890',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('Bearer [redacted]');
    expect(out).toContain('192.168.1.5:8123');
    expect(out).toContain('code=1');
  });

  it('replaces fields named like secrets at any depth, keeping the rest', () => {
    const value = {
      msg: 'saved',
      config: { haToken: 'abc', url: 'http://ha.local', nested: [{ apiKey: 'k', password: 'p', ok: 1 }] },
      totpEnabled: true,
    };
    expect(redactValue(value)).toEqual({
      msg: 'saved',
      config: {
        haToken: '[redacted]',
        url: 'http://ha.local',
        nested: [{ apiKey: '[redacted]', password: '[redacted]', ok: 1 }],
      },
      totpEnabled: true,
    });
  });

  it('parses pino lines and keeps a line that is not JSON as raw, redacted text', () => {
    expect(redactLogLine('{"level":30,"msg":"hi","req":{"headers":{"cookie":"nexus_session=abc"}}}')).toEqual(
      {
        level: 30,
        msg: 'hi',
        req: { headers: { cookie: '[redacted]' } },
      },
    );
    expect(redactLogLine('{"level":30,"msg":"cut off Bearer xyz')).toEqual({
      raw: '{"level":30,"msg":"cut off Bearer [redacted]',
    });
  });

  it('replaces webhook secrets in hook paths and flow API keys in log lines', () => {
    const secret = 'Zm9vYmFyYmF6cXV4cXV1eHh5enp5';
    const line = JSON.stringify({
      level: 30,
      msg: 'request',
      path: `/api/hooks/12/${secret}/test`,
      note: `curl -X POST http://hub.local/api/hooks/12/${secret}?wait=true -H 'Authorization: Bearer nxf_abcdefghijklmnopqrstuvwxyz012345'`,
      other: 'key nxf_AbCdEfGhIjKlMnOpQrStUv in text',
    });
    const out = JSON.stringify(redactLogLine(line));
    expect(out).not.toContain(secret);
    expect(out).not.toContain('nxf_abcdefghijklmnopqrstuvwxyz012345');
    expect(out).not.toContain('nxf_AbCdEfGhIjKlMnOpQrStUv');
    expect(out).toContain('/api/hooks/12/[redacted]/test');
    expect(out).toContain('http://hub.local/api/hooks/12/[redacted]?wait=true');
  });
});
