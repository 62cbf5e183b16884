import { describe, expect, it } from 'vitest';
import { stageSchema, type Stage } from '../../contract/flows.js';
import { SPEECH_NOT_CONFIGURED, executeStage, secretKey, type StageEnv } from './flow-runner.js';
import type { FlowPorts } from './flows.ports.js';
import { HttpError } from '../../lib/http-error.js';

function env(ports: Partial<FlowPorts> = {}, secrets = new Map<string, string>()): StageEnv {
  return {
    ports: {
      http: {
        request: async () => {
          throw new Error('no HTTP in this test');
        },
      },
      ...ports,
    },
    owner: { id: 7, role: 'user' },
    trigger: 'api',
    secrets,
    state: { audio: null, speech: null, transcript: null },
  };
}

const stage = (input: unknown) => stageSchema.parse(input) as Stage;
const context = { trigger: { text: 'Turn on the Kitchen light', n: 3 }, stages: {}, run: {} };

describe('executeStage', () => {
  it('condition: passes, stops, or jumps', async () => {
    const base = { id: 'c', name: 'C', kind: 'condition' };
    const hit = await executeStage(
      stage({ ...base, config: { value: '{{trigger.text}}', compareTo: 'kitchen' } }),
      context,
      env(),
    );
    expect(hit).toMatchObject({ output: { passed: true }, next: undefined });
    const stop = await executeStage(
      stage({ ...base, config: { value: '{{trigger.text}}', compareTo: 'garage' } }),
      context,
      env(),
    );
    expect(stop.next).toEqual({ stop: true });
    const jump = await executeStage(
      stage({
        ...base,
        config: {
          value: '{{trigger.n}}',
          operator: 'matches',
          compareTo: '^[0-2]$',
          otherwise: { action: 'goto', stageId: 'later' },
        },
      }),
      context,
      env(),
    );
    expect(jump.next).toEqual({ goto: 'later' });
    await expect(
      executeStage(
        stage({ ...base, config: { value: 'x', operator: 'matches', compareTo: '(' } }),
        context,
        env(),
      ),
    ).rejects.toThrow(/regular expression/);
  });

  it('a stage whose service is missing names it and the page that sets it up (issue 21)', async () => {
    const llm = stage({ id: 'l', name: 'L', kind: 'llm', config: { prompt: 'hi' } });
    await expect(executeStage(llm, context, env())).rejects.toThrow('set it up at /nexus-deploy?app=ollama');
    const ha = stage({
      id: 'h',
      name: 'H',
      kind: 'ha_call',
      config: { domain: 'light', service: 'turn_on' },
    });
    await expect(executeStage(ha, context, env())).rejects.toThrow('set it up at /ha-connection-setup');
    const stt = stage({ id: 's', name: 'S', kind: 'stt', config: {} });
    const withClip = env();
    withClip.state.audio = Buffer.from('RIFF....WAVE');
    await expect(executeStage(stt, context, withClip)).rejects.toThrow(
      'set it up at /nexus-deploy?app=wyoming-whisper',
    );
    // The stage's own mistakes are not blamed on a service.
    const refused = env({
      llm: {
        complete: async () => {
          throw new HttpError(400, 'The prompt is too long');
        },
      } as unknown as FlowPorts['llm'],
    });
    const named = stage({ id: 'n', name: 'N', kind: 'llm', config: { prompt: 'hi', model: 'm' } });
    await expect(executeStage(named, context, refused)).rejects.toThrow(/^The prompt is too long$/);
  });

  it('speech stages fail clearly without speech services or without a clip', async () => {
    const vad = stage({ id: 'vad', name: 'VAD', kind: 'vad', config: {} });
    const withClip = env();
    withClip.state.audio = Buffer.from('RIFF....WAVE');
    await expect(executeStage(vad, context, withClip)).rejects.toThrow(SPEECH_NOT_CONFIGURED);
    await expect(executeStage(vad, context, env())).rejects.toThrow(/needs a voice clip/);
  });

  it('VAD trims the clip for STT and rejects clips without speech', async () => {
    const trimmed = Buffer.from('trimmed');
    let heard: Buffer | null = null;
    const ports: Partial<FlowPorts> = {
      speech: {
        detectSpeech: async (wav) =>
          wav.toString() === 'silence'
            ? { speech: false, wav, speechMs: 0, durationMs: 900 }
            : { speech: true, wav: trimmed, speechMs: 800, durationMs: 2000 },
        transcribe: async (wav) => {
          heard = wav;
          return { text: 'turn on the kitchen light', engine: 'test', ms: 5 };
        },
        synthesize: async () => ({ wav: Buffer.alloc(0), engine: 'test', ms: 1 }),
      },
    };
    const e = env(ports);
    e.state.audio = Buffer.from('speech');
    await executeStage(stage({ id: 'vad', name: 'VAD', kind: 'vad', config: {} }), context, e);
    const stt = await executeStage(
      stage({ id: 'stt', name: 'STT', kind: 'stt', config: { engine: '' } }),
      context,
      e,
    );
    expect(heard).toBe(trimmed);
    expect(stt.output).toMatchObject({ text: 'turn on the kitchen light' });
    expect(e.state.transcript).toBe('turn on the kitchen light');

    const silent = env(ports);
    silent.state.audio = Buffer.from('silence');
    await expect(
      executeStage(stage({ id: 'vad', name: 'VAD', kind: 'vad', config: {} }), context, silent),
    ).rejects.toThrow(/No speech/);
  });

  it('ha_call renders entity ids and JSON service data, and calls with the owner’s role', async () => {
    const calls: unknown[] = [];
    const result = await executeStage(
      stage({
        id: 'ha',
        name: 'HA',
        kind: 'ha_call',
        config: {
          domain: 'light',
          service: 'turn_on',
          entityId: 'light.a, light.b',
          data: '{"brightness_pct": {{trigger.n}}0, "say": "{{trigger.text}}"}',
        },
      }),
      context,
      env({
        homeAssistant: {
          callService: async (...args) => {
            calls.push(args);
            return { entityIds: ['light.a', 'light.b'], contextId: 'ctx' };
          },
        },
      }),
    );
    expect(calls).toEqual([
      [
        'user',
        'light',
        'turn_on',
        {
          entity_id: ['light.a', 'light.b'],
          service_data: { brightness_pct: 30, say: 'Turn on the Kitchen light' },
        },
        { trigger: 'api' },
      ],
    ]);
    expect(result.output).toEqual({ entityIds: ['light.a', 'light.b'], contextId: 'ctx' });
  });

  it('http_request sends secret headers but records them masked; an error status fails the stage', async () => {
    const sent: Record<string, string>[] = [];
    const secrets = new Map([[secretKey('post', 'Authorization'), 'Bearer hidden']]);
    const ports: Partial<FlowPorts> = {
      http: {
        request: async (input) => {
          sent.push(input.headers);
          return {
            status: sent.length === 1 ? 200 : 503,
            headers: { 'content-type': 'application/json' },
            body: '{"ok":true}',
            ms: 1,
          };
        },
      },
    };
    const post = stage({
      id: 'post',
      name: 'Post',
      kind: 'http_request',
      config: {
        url: 'http://example.test/{{trigger.n}}',
        headers: [
          { name: 'Authorization', secret: true },
          { name: 'X-N', value: '{{trigger.n}}' },
        ],
      },
    });
    const ok = await executeStage(post, context, env(ports, secrets));
    expect(sent[0]).toEqual({ Authorization: 'Bearer hidden', 'X-N': '3' });
    expect(JSON.stringify(ok.input)).not.toContain('hidden');
    expect(ok.output).toMatchObject({ status: 200, body: { ok: true } });
    await expect(executeStage(post, context, env(ports, secrets))).rejects.toThrow(
      'example.test answered 503',
    );
  });
});

describe('condition patterns (RE2)', () => {
  const base = { id: 'c', name: 'C', kind: 'condition' };
  const run = (value: string, compareTo: string, ignoreCase = false) =>
    executeStage(
      stage({ ...base, config: { value, operator: 'matches', compareTo, ignoreCase } }),
      context,
      env(),
    );

  it('matches as RegExp did for ordinary patterns', async () => {
    // The catastrophic case ((a+)+$ on many a's and a b) is in tests/integration/flows-hardening:
    // with a backtracking engine it would hang this worker rather than fail.
    expect((await run('a'.repeat(5000), '(a+)+$')).output).toEqual({ passed: true });
    expect((await run('aaab', '^(a+)+b$')).output).toEqual({ passed: true });
    expect((await run('Turn on the KITCHEN', 'kitchen', true)).output).toEqual({ passed: true });
    expect((await run('Turn on the KITCHEN', 'kitchen')).output).toEqual({ passed: false });
  });

  it('refuses backreferences and lookarounds with a message that says why', async () => {
    for (const pattern of ['(a)\\1', '(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b']) {
      await expect(run('aab', pattern), pattern).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/Not a usable regular expression: .*RE2.*backreferences/),
      });
    }
    await expect(run('x', 'a'.repeat(1001))).rejects.toMatchObject({ status: 400 });
  });
});
