import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  speechProbeResultSchema,
  speechSettingsSchema,
  transcriptionSchema,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import {
  STT_SIM_MODEL,
  createPocketsphinx,
  startWyomingSttSim,
  type WyomingSttSim,
} from '../fixtures/wyoming-stt-sim.js';
import { TTS_SIM_RATE, startWyomingTtsSim, type WyomingTtsSim } from '../fixtures/wyoming-tts-sim.js';

const run = promisify(execFile);
const OPENAI_KEY = 'sk-speech-sim-0123456789-never-shown';

/** Clips spoken by espeak-ng: its own 22050 Hz output, and sox's 16 kHz mono 16-bit copy. */
async function speak(dir: string, name: string, text: string) {
  const raw = path.join(dir, `${name}-22k.wav`);
  const clip = path.join(dir, `${name}-16k.wav`);
  await run('espeak-ng', ['-w', raw, text]);
  await run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', clip]);
  return { raw: fs.readFileSync(raw), clip: fs.readFileSync(clip) };
}

/** The fmt chunk of a canonical WAV file. */
function wavFormat(wav: Buffer) {
  return {
    riff: wav.toString('ascii', 0, 4),
    wave: wav.toString('ascii', 8, 12),
    channels: wav.readUInt16LE(22),
    rate: wav.readUInt32LE(24),
    bits: wav.readUInt16LE(34),
    dataBytes: wav.readUInt32LE(40),
  };
}

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * OpenAI's `POST /v1/audio/transcriptions` as its API reference describes it (multipart `file` +
 * `model`, Bearer key, `{text}` answer, `{error}` bodies), recognising with pocketsphinx.
 */
async function startOpenAiTranscriptionSim() {
  const recognizer = await createPocketsphinx();
  const seen: {
    authorization: string | undefined;
    model: string | null;
    fileType: string | null;
    language: string | null;
  }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions')
      return reply(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    if (req.headers.authorization !== `Bearer ${OPENAI_KEY}`)
      return reply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const form = await new Request('http://sim/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    }).formData();
    const file = form.get('file');
    seen.push({
      authorization: req.headers.authorization,
      model: form.get('model') as string | null,
      fileType: file instanceof Blob ? file.type : null,
      language: form.get('language') as string | null,
    });
    if (!(file instanceof Blob)) return reply(400, { error: { message: 'file is required' } });
    const wav = recognizer.nextFile('wav');
    fs.writeFileSync(wav, Buffer.from(await file.arrayBuffer()));
    reply(200, { text: await recognizer.recognizeFile(wav) });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: async () => {
      await new Promise((r) => server.close(r));
      await recognizer.close();
    },
  };
}

let agent: RunningAgent;
let stt: WyomingSttSim;
let tts: WyomingTtsSim;
let openai: Awaited<ReturnType<typeof startOpenAiTranscriptionSim>>;
let admin: Client;
let member: Client;
let dir: string;
let kitchenOn: { raw: Buffer; clip: Buffer };

const wyomingSettings = (sttPort: number, ttsPort: number) => ({
  stt: { engine: 'wyoming', wyomingHost: '127.0.0.1', wyomingPort: sttPort, language: 'en' },
  tts: { engine: 'wyoming', host: '127.0.0.1', port: ttsPort, voice: 'en-us' },
});

const postWav = (c: Client, body: Buffer | string, type = 'audio/wav', query = '') =>
  fetch(`${c.baseUrl}/api/speech/transcribe${query}`, {
    method: 'POST',
    headers: { 'content-type': type, cookie: `nexus_session=${c.cookie('nexus_session') ?? ''}` },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-test-'));
  [agent, stt, tts, openai, kitchenOn] = await Promise.all([
    startAgent(),
    startWyomingSttSim(),
    startWyomingTtsSim(),
    startOpenAiTranscriptionSim(),
    speak(dir, 'kitchen-on', 'turn on the kitchen light'),
  ]);
  admin = new Client(agent.url);
  member = new Client(agent.url);
  await signUp(admin, { name: 'Owner' });
  await signUp(member, { name: 'Member' });
}, 60_000);

afterAll(async () => {
  await Promise.all([agent?.stop(), stt?.close(), tts?.close(), openai?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('speech settings', () => {
  it('are read by anyone signed in, changed by admins only', async () => {
    expect((await new Client(agent.url).get('/api/speech/settings')).status).toBe(401);
    const read = await member.get('/api/speech/settings');
    expect(read.status).toBe(200);
    const settings = speechSettingsSchema.parse(read.json.settings);
    expect(settings.stt.engine).toBeNull();
    expect(settings.tts.engine).toBeNull();
    expect(settings.stt.wyomingPort).toBe(10300);
    expect(settings.tts.port).toBe(10200);

    expect((await member.put('/api/speech/settings', wyomingSettings(stt.port, tts.port))).status).toBe(403);
    expect((await member.post('/api/speech/probe', { host: '127.0.0.1', port: stt.port })).status).toBe(403);
  });

  it('refuses settings that miss what the engine needs, with the field named', async () => {
    const res = await admin.put('/api/speech/settings', {
      stt: { engine: 'wyoming', wyomingHost: null },
      tts: { engine: null },
    });
    expect(res.status).toBe(400);
    expect(res.json.details[0].path).toEqual(['stt', 'wyomingHost']);
    const badHost = await admin.put('/api/speech/settings', {
      stt: { engine: 'wyoming', wyomingHost: 'http://whisper:10300' },
      tts: { engine: null },
    });
    expect(badHost.status).toBe(400);
    const badPort = await admin.put('/api/speech/settings', {
      stt: { engine: 'wyoming', wyomingHost: 'whisper', wyomingPort: 70000 },
      tts: { engine: null },
    });
    expect(badPort.status).toBe(400);
    expect(badPort.json.message).toContain('65535');
  });

  it('without a configured engine, trying them says what to set up', async () => {
    const res = await postWav(member, kitchenOn.clip);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toContain('Speech to text is not set up');
    const say = await member.post('/api/speech/synthesize', { text: 'hello' });
    expect(say.status).toBe(409);
    expect(say.json.message).toContain('Text to speech is not set up');
  });
});

describe('probe', () => {
  it('lists the models a Wyoming speech-to-text service reports', async () => {
    const res = await admin.post('/api/speech/probe', { host: '127.0.0.1', port: stt.port });
    expect(res.status, res.text).toBe(200);
    const probe = speechProbeResultSchema.parse(res.json.probe);
    expect(probe.programs).toHaveLength(1);
    expect(probe.programs[0]).toMatchObject({
      kind: 'asr',
      name: 'pocketsphinx',
      installed: true,
      models: [{ name: STT_SIM_MODEL, languages: ['en'], installed: true }],
    });
    expect(stt.events).toContain('describe');
  });

  it('lists the voices of a Wyoming text-to-speech service', async () => {
    const res = await admin.post('/api/speech/probe', { host: '127.0.0.1', port: tts.port });
    expect(res.status).toBe(200);
    const probe = speechProbeResultSchema.parse(res.json.probe);
    expect(probe.programs[0]).toMatchObject({ kind: 'tts', name: 'espeak-ng' });
    expect(probe.programs[0]!.models.map((m) => m.name)).toEqual(['en-us', 'en-gb']);
  });

  it('answers 502 with a clear message when nothing listens there', async () => {
    const port = await closedPort();
    const res = await admin.post('/api/speech/probe', { host: '127.0.0.1', port });
    expect(res.status).toBe(502);
    expect(res.json.message).toContain(`127.0.0.1:${port} cannot be reached`);
  });

  it('refuses an invalid host or port with 400', async () => {
    expect((await admin.post('/api/speech/probe', { host: '', port: 10300 })).status).toBe(400);
    expect((await admin.post('/api/speech/probe', { host: 'whisper', port: 0 })).status).toBe(400);
  });
});

describe('transcribe and synthesize through Wyoming', () => {
  beforeAll(async () => {
    const res = await admin.put('/api/speech/settings', wyomingSettings(stt.port, tts.port));
    expect(res.status, res.text).toBe(200);
  });

  it('transcribes a spoken 16 kHz clip', async () => {
    const res = await postWav(member, kitchenOn.clip);
    expect(res.status).toBe(200);
    const t = transcriptionSchema.parse((await res.json()).transcription);
    expect(t.text).toBe('turn on the kitchen light');
    expect(t.engine).toBe('wyoming');
    expect(t.model).toBe(STT_SIM_MODEL);
    expect(t.durationMs).toBeGreaterThan(1000);
    expect(t.durationMs).toBeLessThan(3000);
    const last = stt.transcripts.at(-1)!;
    expect(last).toMatchObject({ rate: 16000, width: 2, channels: 1 });
    // 1024-sample chunks, the last one partial.
    expect(last.chunks).toBe(Math.ceil(last.bytes / 2048));
    expect(stt.requests.at(-1)).toMatchObject({ language: 'en' });
  });

  it("transcribes espeak-ng's own 22050 Hz output, resampled to 16 kHz first", async () => {
    const res = await postWav(member, kitchenOn.raw);
    expect(res.status).toBe(200);
    expect((await res.json()).transcription.text).toBe('turn on the kitchen light');
    expect(stt.transcripts.at(-1)).toMatchObject({ rate: 16000, width: 2, channels: 1 });
  });

  it('synthesizes speech as a WAV file, which transcribes back to the same words', async () => {
    const res = await fetch(`${member.baseUrl}/api/speech/synthesize`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `nexus_session=${member.cookie('nexus_session')}`,
      },
      body: JSON.stringify({ text: 'what time is it' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('x-speech-engine')).toBe('wyoming');
    expect(Number(res.headers.get('x-speech-ms'))).toBeGreaterThanOrEqual(0);
    const wav = Buffer.from(await res.arrayBuffer());
    const format = wavFormat(wav);
    expect(format).toMatchObject({ riff: 'RIFF', wave: 'WAVE', channels: 1, rate: TTS_SIM_RATE, bits: 16 });
    expect(format.dataBytes).toBe(wav.length - 44);
    // Longer than half a second of audio: real speech, not a header.
    expect(format.dataBytes / 2 / TTS_SIM_RATE).toBeGreaterThan(0.5);
    expect(tts.requests.at(-1)).toEqual({ text: 'what time is it', voice: { name: 'en-us' } });

    const back = await postWav(member, wav);
    expect((await back.json()).transcription.text).toBe('what time is it');
  });

  it("passes on the service's error for a voice it does not have", async () => {
    const res = await member.post('/api/speech/synthesize', { text: 'hello', voice: 'de-de' });
    expect(res.status).toBe(502);
    expect(res.json.message).toContain('Voice de-de is not installed');
  });

  it('refuses empty or oversized text with 400', async () => {
    expect((await member.post('/api/speech/synthesize', { text: '  ' })).status).toBe(400);
    expect((await member.post('/api/speech/synthesize', { text: 'x'.repeat(2001) })).status).toBe(400);
  });

  it('refuses what is not a WAV clip: 415 for other types, 400 for a broken or empty file', async () => {
    const json = await postWav(member, '{"text":"hi"}', 'application/json');
    expect(json.status).toBe(415);
    expect((await json.json()).message).toContain('audio/wav');
    const mp3 = await postWav(
      member,
      Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000garbage'),
      'audio/mpeg',
    );
    expect(mp3.status).toBe(415);
    const empty = await postWav(member, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    const broken = Buffer.from(kitchenOn.clip.subarray(0, 44));
    broken.write('junk', 12, 'ascii');
    const corrupt = await postWav(member, broken);
    expect([400, 415]).toContain(corrupt.status);
    const body = (await corrupt.json()) as { message: string };
    expect(body.message.length).toBeGreaterThan(5);
    const badLanguage = await postWav(member, kitchenOn.clip, 'audio/wav', '?language=english!');
    expect(badLanguage.status).toBe(400);
  });

  it('refuses a clip over 10 MB with 413', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024);
    kitchenOn.clip.copy(big, 0, 0, 44);
    const res = await postWav(member, big);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toContain('10 MB');
  });

  it('answers 502 when the service fails, with its message', async () => {
    stt.failWith = 'model not loaded';
    try {
      const res = await postWav(member, kitchenOn.clip);
      expect(res.status).toBe(502);
      expect((await res.json()).message).toContain('model not loaded');
    } finally {
      stt.failWith = null;
    }
  });

  it('answers 502 with a clear message when the service is unreachable', async () => {
    const port = await closedPort();
    await admin.put('/api/speech/settings', wyomingSettings(port, port));
    try {
      const res = await postWav(member, kitchenOn.clip);
      expect(res.status).toBe(502);
      expect((await res.json()).message).toMatch(
        new RegExp(`Speech to text failed: .*127\\.0\\.0\\.1:${port} cannot be reached`),
      );
      const say = await member.post('/api/speech/synthesize', { text: 'hello' });
      expect(say.status).toBe(502);
      expect(say.json.message).toContain('cannot be reached');
    } finally {
      await admin.put('/api/speech/settings', wyomingSettings(stt.port, tts.port));
    }
  });
});

describe('transcribe through an OpenAI-compatible endpoint', () => {
  it('sends the clip as multipart with the stored key, which is never returned', async () => {
    const saved = await admin.put('/api/speech/settings', {
      stt: { engine: 'openai', openaiBaseUrl: openai.baseUrl, apiKey: OPENAI_KEY, model: 'whisper-1' },
      tts: { engine: 'wyoming', host: '127.0.0.1', port: tts.port },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.text).not.toContain(OPENAI_KEY);
    expect(saved.json.settings.stt).toMatchObject({ engine: 'openai', hasApiKey: true, model: 'whisper-1' });

    const read = await member.get('/api/speech/settings');
    expect(read.text).not.toContain(OPENAI_KEY);
    expect(read.json.settings.stt.hasApiKey).toBe(true);

    const res = await postWav(member, kitchenOn.raw);
    expect(res.status).toBe(200);
    const t = transcriptionSchema.parse((await res.json()).transcription);
    expect(t).toMatchObject({ text: 'turn on the kitchen light', engine: 'openai', model: 'whisper-1' });
    expect(openai.seen.at(-1)).toMatchObject({ model: 'whisper-1', fileType: 'audio/wav' });

    // At rest the key is sealed: the database file does not hold it.
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const row = db.prepare('select stt_api_key_sealed as sealed from speech_settings').get() as {
      sealed: string;
    };
    db.close();
    expect(row.sealed).toBeTruthy();
    expect(row.sealed).not.toContain(OPENAI_KEY);
    expect(agent.logs.join('\n')).not.toContain(OPENAI_KEY);
  });

  it('keeps the key when the settings are saved without one, and reports a rejected key as 502', async () => {
    const kept = await admin.put('/api/speech/settings', {
      stt: { engine: 'openai', openaiBaseUrl: openai.baseUrl },
      tts: { engine: null },
    });
    expect(kept.json.settings.stt.hasApiKey).toBe(true);
    await admin.put('/api/speech/settings', {
      stt: { engine: 'openai', openaiBaseUrl: openai.baseUrl, apiKey: 'sk-wrong' },
      tts: { engine: null },
    });
    const res = await postWav(member, kitchenOn.clip);
    expect(res.status).toBe(502);
    expect((await res.json()).message).toContain('Incorrect API key provided');
    const cleared = await admin.put('/api/speech/settings', {
      stt: { engine: null, apiKey: null },
      tts: { engine: null },
    });
    expect(cleared.json.settings.stt.hasApiKey).toBe(false);
  });
});
