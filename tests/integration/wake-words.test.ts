import { unzipSync, strFromU8 } from 'fflate';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recordings } from '../fixtures/recordings.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

const recordings = new Recordings();
let agent: RunningAgent;
let owner: Client;
let member: Client;
let wakeWordId: number;

const phrase = recordings.speak('hey nexus');
const padded = recordings.pad(phrase, 0.5, 1);

/** POSTs raw bytes as the signed-in client (the test Client only sends text bodies). */
async function upload(
  client: Client | null,
  path: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
) {
  const cookie = client?.cookie('nexus_session');
  const res = await fetch(agent.url + path, {
    method: 'POST',
    body: body as Uint8Array<ArrayBuffer>,
    headers: {
      'content-type': 'audio/wav',
      ...(cookie ? { cookie: `nexus_session=${cookie}` } : {}),
      ...headers,
    },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const uploadFile = (file: string, query = 'device=Laptop%20mic&speaker=Ada', client: Client = owner) =>
  upload(client, `/api/wake-words/${wakeWordId}/samples?${query}`, recordings.read(file));

beforeAll(async () => {
  agent = await startAgent();
  owner = new Client(agent.url);
  member = new Client(agent.url);
  await signUp(owner, { name: 'Ada Owner' });
  await signUp(member, { name: 'Ben Member' });
});
afterAll(async () => {
  await agent?.stop();
  recordings.cleanup();
});

describe('/api/wake-words', () => {
  it('refuses signed-out callers and lets only admins create wake words', async () => {
    expect((await new Client(agent.url).get('/api/wake-words')).status).toBe(401);
    expect((await member.post('/api/wake-words', { phrase: 'hey nexus' })).status).toBe(403);
  });

  it('creates a wake word with a target of 50 samples and refuses bad or duplicate phrases', async () => {
    const res = await owner.post('/api/wake-words', { phrase: '  Hey   Nexus ' });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      phrase: 'Hey Nexus',
      slug: 'hey-nexus',
      targetSamples: 50,
      language: 'en',
      crowdsourcing: false,
      progress: { accepted: 0, pending: 0, rejected: 0, percent: 0, byDevice: [], bySpeaker: [] },
    });
    wakeWordId = res.json.id;
    expect((await owner.post('/api/wake-words', { phrase: 'hey nexus' })).status).toBe(409);
    expect((await owner.post('/api/wake-words', { phrase: '' })).status).toBe(400);
    expect((await owner.post('/api/wake-words', { phrase: 'rm -rf /' })).status).toBe(400);
    const unknown = await owner.post('/api/wake-words', { phrase: 'ok nexus', colour: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/colour|unrecognized/i);
    expect((await owner.get('/api/wake-words')).json.map((w: { id: number }) => w.id)).toEqual([wakeWordId]);
    expect((await member.get(`/api/wake-words/${wakeWordId}`)).status).toBe(200);
    expect((await owner.get('/api/wake-words/9999')).status).toBe(404);
  });

  it('measures a clean take padded with 0.5 s and 1 s of silence: good and accepted at once', async () => {
    const res = await uploadFile(padded);
    expect(res.status).toBe(201);
    const q = res.json.quality;
    expect(res.json).toMatchObject({
      status: 'accepted',
      source: 'recording',
      device: 'Laptop mic',
      speaker: 'Ada',
    });
    expect(q.verdict).toBe('good');
    expect(q.issues).toEqual([]);
    // espeak-ng starts speaking at once, so the silence found is the padding (±40 ms of frame edges).
    expect(Math.abs(q.leadingSilenceMs - 500)).toBeLessThanOrEqual(40);
    expect(q.trailingSilenceMs).toBeGreaterThanOrEqual(1000);
    expect(q.trailingSilenceMs).toBeLessThanOrEqual(1400);
    expect(q.speechMs).toBeGreaterThan(500);
    expect(q.snrDb).toBeGreaterThan(40);
    expect(q.clippingPercent).toBe(0);
    expect(q.peakDbfs).toBeCloseTo(-3, 0);
  });

  it('finds a 15 dB SNR (±2 dB) in a noisy take: a warning that waits for review', async () => {
    const noisy = recordings.addNoise(padded, 15);
    const res = await uploadFile(noisy.path, 'device=Kitchen%20array&speaker=Ben');
    expect(res.status).toBe(201);
    expect(Math.abs(res.json.quality.snrDb - 15)).toBeLessThan(2);
    expect(Math.abs(res.json.quality.noiseFloorDbfs - noisy.noiseRmsDbfs)).toBeLessThan(1.5);
    expect(res.json.quality.verdict).toBe('warning');
    expect(res.json.quality.issues.join(' ')).toMatch(/background noise: 1\d\.\d dB SNR — /);
    expect(res.json.status).toBe('pending');
  });

  it('calls a 5 dB SNR take, a clipped take and a silent take bad, saying why and what to do', async () => {
    const noisy = await uploadFile(recordings.addNoise(padded, 5).path);
    expect(noisy.json.quality.verdict).toBe('bad');
    expect(noisy.json.quality.issues[0]).toMatch(/^noisy: [\d.]+ dB SNR — move closer/);

    const clipped = await uploadFile(recordings.clip(padded, 18));
    expect(clipped.json.quality.verdict).toBe('bad');
    expect(clipped.json.quality.clippingPercent).toBeGreaterThan(1);
    expect(clipped.json.quality.issues.join('\n')).toMatch(
      /clipped: [\d.]+ % of samples at full scale — move back or lower the gain/,
    );

    const silent = await uploadFile(recordings.silence(2));
    expect(silent.json.quality).toMatchObject({ verdict: 'bad', speechMs: 0, snrDb: null });
    expect(silent.json.quality.issues[0]).toMatch(/^no speech found/);
  });

  it('takes 48 kHz stereo 24-bit, keeps its original format on record and stores 16 kHz mono 16-bit', async () => {
    const res = await uploadFile(recordings.convert(padded, { rate: 48_000, channels: 2, bits: 24 }));
    expect(res.status).toBe(201);
    expect(res.json.original).toEqual({ sampleRate: 48_000, channels: 2, bitsPerSample: 24 });
    expect(res.json.quality.verdict).toBe('good');
    const audio = await fetch(`${agent.url}/api/wake-words/${wakeWordId}/samples/${res.json.id}/audio`, {
      headers: { cookie: `nexus_session=${owner.cookie('nexus_session')}` },
    });
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await audio.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.readUInt16LE(34)).toBe(16);
  });

  it('refuses what is not PCM WAV (415), broken WAV (400), an empty body (400) and over 10 MB (413)', async () => {
    expect((await uploadFile(recordings.convert(phrase, { encoding: 'u-law', bits: 8 }))).status).toBe(415);
    const corrupt = await uploadFile(recordings.corrupt());
    expect(corrupt.status).toBe(400);
    expect(corrupt.json.message).toMatch(/Corrupt WAV/);
    expect(
      (
        await upload(owner, `/api/wake-words/${wakeWordId}/samples`, Buffer.from('hello'), {
          'content-type': 'text/plain',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await upload(owner, `/api/wake-words/${wakeWordId}/samples`, Buffer.from('{}'), {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(415);
    expect((await upload(owner, `/api/wake-words/${wakeWordId}/samples`, new Uint8Array(0))).status).toBe(
      400,
    );
    const big = await uploadFile(recordings.large(10.5));
    expect(big.status).toBe(413);
    expect(big.json.message).toMatch(/10 MB/);
    expect(
      (await upload(null, `/api/wake-words/${wakeWordId}/samples`, recordings.read(phrase))).status,
    ).toBe(401);
    expect((await upload(owner, `/api/wake-words/9999/samples`, recordings.read(phrase))).status).toBe(404);
    expect((await uploadFile(phrase, 'device=' + 'x'.repeat(81))).status).toBe(400);
  });

  it('takes samples from a satellite with its device token, named after the satellite', async () => {
    const created = await owner.post('/api/devices/satellite', { name: 'Living room satellite' });
    expect(created.status).toBe(201);
    const { satellite, token } = created.json;
    const path = `/api/wake-words/${wakeWordId}/samples?satellite=${satellite.id}&speaker=Ada`;
    const ok = await upload(null, path, recordings.read(padded), { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({ source: 'satellite', device: 'Living room satellite', speaker: 'Ada' });
    const wrong = await upload(null, path, recordings.read(padded), { authorization: 'Bearer nxsat_wrong' });
    expect(wrong.status).toBe(401);
  });

  it('reports progress by device and by speaker, and moves as samples are reviewed and deleted', async () => {
    const before = (await owner.get(`/api/wake-words/${wakeWordId}`)).json;
    // Accepted: the clean take, the 48 kHz take (Laptop mic, Ada) and the satellite's (Ada).
    expect(before.progress.accepted).toBe(3);
    expect(before.progress.percent).toBe(6);
    expect(before.progress.byDevice).toContainEqual({
      name: 'Laptop mic',
      accepted: 2,
      pending: 3,
      rejected: 0,
    });
    expect(before.progress.byDevice).toContainEqual({
      name: 'Kitchen array',
      accepted: 0,
      pending: 1,
      rejected: 0,
    });
    expect(before.progress.bySpeaker).toContainEqual({ name: 'Ada', accepted: 3, pending: 3, rejected: 0 });

    const pending = (await owner.get(`/api/wake-words/${wakeWordId}/samples?status=pending`)).json;
    expect(pending).toHaveLength(4);
    const noisy = pending.find((s: { device: string }) => s.device === 'Kitchen array');
    const accepted = await owner.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${noisy.id}`, {
      status: 'accepted',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: 'accepted', reviewedAt: expect.any(String) });
    for (const bad of pending.filter((s: { quality: { verdict: string } }) => s.quality.verdict === 'bad')) {
      // A member cannot judge someone else's take (for them it does not exist); the admin can.
      const refused = await member.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${bad.id}`, {
        status: 'rejected',
      });
      expect(refused.status).toBe(404);
      expect(refused.json.message).toBe('No such sample');
      expect((await member.delete(`/api/wake-words/${wakeWordId}/samples/${bad.id}`)).status).toBe(404);
      const rejected = await owner.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${bad.id}`, {
        status: 'rejected',
      });
      expect(rejected.status).toBe(200);
    }
    expect(
      (await owner.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${noisy.id}`, { status: 'maybe' }))
        .status,
    ).toBe(400);

    const after = (await owner.get(`/api/wake-words/${wakeWordId}`)).json;
    expect(after.progress).toMatchObject({ accepted: 4, pending: 0, rejected: 3 });
    expect(after.progress.byDevice).toContainEqual({
      name: 'Kitchen array',
      accepted: 1,
      pending: 0,
      rejected: 0,
    });

    const rejected = (await owner.get(`/api/wake-words/${wakeWordId}/samples?status=rejected`)).json;
    const gone = rejected[0].id;
    expect((await owner.delete(`/api/wake-words/${wakeWordId}/samples/${gone}`)).status).toBe(204);
    expect((await owner.get(`/api/wake-words/${wakeWordId}/samples/${gone}/audio`)).status).toBe(404);
    expect((await owner.get(`/api/wake-words/${wakeWordId}`)).json.progress.rejected).toBe(2);
  });

  it('lets a member review and delete the takes they recorded themselves', async () => {
    const own = await uploadFile(padded, 'device=Phone', member);
    expect(own.status).toBe(201);
    const me = (await member.get('/api/auth/user')).json;
    expect(own.json).toMatchObject({ uploadedBy: me.id, speaker: 'Ben Member' });
    const id = own.json.id as number;
    const reviewed = await member.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${id}`, {
      status: 'rejected',
    });
    expect(reviewed.status).toBe(200);
    expect((await member.delete(`/api/wake-words/${wakeWordId}/samples/${id}`)).status).toBe(204);
    expect((await owner.get(`/api/wake-words/${wakeWordId}`)).json.progress.rejected).toBe(2);
  });
});

describe("members' recordings", () => {
  it("keeps a member's takes from other members (list, audio, review, dataset, speaker names); admins see all", async () => {
    const other = new Client(agent.url);
    const cleo = await signUp(other, { name: 'Cleo Member' });
    expect(cleo.role).toBe('user');
    const take = await uploadFile(padded, 'device=Phone&speaker=Cleo%20Private', other);
    expect(take.status).toBe(201);
    const sampleId = take.json.id as number;

    // Cleo hears her own take.
    const mine = (await other.get(`/api/wake-words/${wakeWordId}/samples`)).json;
    expect(mine.map((s: { id: number }) => s.id)).toEqual([sampleId]);
    expect((await other.get(`/api/wake-words/${wakeWordId}/samples/${sampleId}/audio`)).status).toBe(200);

    // Ben does not: not in his lists, not as audio, not to review or delete, and not by name.
    for (const query of [
      '',
      '?status=accepted',
      '?status=pending',
      '?source=recording',
      '?source=crowdsource',
    ]) {
      const listed = await member.get(`/api/wake-words/${wakeWordId}/samples${query}`);
      expect(listed.status).toBe(200);
      for (const sample of listed.json) expect(sample.uploadedBy).not.toBe(cleo.id);
      expect(listed.text).not.toContain('Cleo Private');
      expect(listed.text).not.toContain('Ada');
    }
    const audio = await member.get(`/api/wake-words/${wakeWordId}/samples/${sampleId}/audio`);
    expect(audio.status).toBe(404);
    expect(audio.json.message).toBe('No such sample');
    const review = await member.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${sampleId}`, {
      status: 'rejected',
    });
    expect(review.status).toBe(404);
    expect((await member.delete(`/api/wake-words/${wakeWordId}/samples/${sampleId}`)).status).toBe(404);
    expect((await member.get(`/api/wake-words/${wakeWordId}/dataset`)).status).toBe(403);
    const progress = await member.get(`/api/wake-words/${wakeWordId}`);
    expect(progress.text).not.toContain('Cleo Private');
    expect(progress.json.progress.bySpeaker.map((g: { name: string }) => g.name)).toEqual(['Other speakers']);
    expect((await member.get('/api/wake-words')).text).not.toContain('Cleo Private');

    // The admin sees, hears and names every take.
    const all = (await owner.get(`/api/wake-words/${wakeWordId}/samples`)).json;
    expect(all.map((s: { id: number }) => s.id)).toContain(sampleId);
    expect((await owner.get(`/api/wake-words/${wakeWordId}/samples/${sampleId}/audio`)).status).toBe(200);
    expect(
      (await owner.get(`/api/wake-words/${wakeWordId}`)).json.progress.bySpeaker.map(
        (g: { name: string }) => g.name,
      ),
    ).toContain('Cleo Private');
    expect((await other.delete(`/api/wake-words/${wakeWordId}/samples/${sampleId}`)).status).toBe(204);
  });
});

describe('engine exports', () => {
  const exportFor = async (engine: string) => {
    const res = await owner.get(`/api/wake-words/${wakeWordId}/export?engine=${engine}`);
    expect(res.status, res.text).toBe(200);
    return res.json as {
      files: { name: string; content: string }[];
      steps: string[];
      acceptedSamples: number;
    };
  };

  it('gives a microWakeWord v2 manifest with exactly its fields, and an ESPHome micro_wake_word snippet', async () => {
    const out = await exportFor('microwakeword');
    expect(out.acceptedSamples).toBe(4);
    const manifest = JSON.parse(out.files.find((f) => f.name === 'hey_nexus.json')!.content);
    expect(Object.keys(manifest).sort()).toEqual(
      ['author', 'micro', 'model', 'trained_languages', 'type', 'version', 'wake_word', 'website'].sort(),
    );
    expect(manifest).toMatchObject({
      type: 'micro',
      wake_word: 'Hey Nexus',
      model: 'hey_nexus.tflite',
      version: 2,
    });
    expect(manifest.trained_languages).toEqual(['en']);
    expect(Object.keys(manifest.micro).sort()).toEqual(
      [
        'feature_step_size',
        'minimum_esphome_version',
        'probability_cutoff',
        'sliding_window_size',
        'tensor_arena_size',
      ].sort(),
    );
    expect(manifest.micro.feature_step_size).toBe(10);
    const esphome = parseYaml(out.files.find((f) => f.name.endsWith('.yaml'))!.content);
    expect(esphome.micro_wake_word.models).toEqual([{ model: 'hey_nexus.json', id: 'hey_nexus' }]);
  });

  it("gives openWakeWord's training YAML with the phrase, and the Wyoming server's settings", async () => {
    const out = await exportFor('openwakeword');
    const training = parseYaml(out.files.find((f) => f.name === 'hey_nexus.yml')!.content);
    expect(training).toMatchObject({
      model_name: 'hey_nexus',
      target_phrase: ['Hey Nexus'],
      total_length: 32_000,
    });
    for (const field of [
      'n_samples',
      'n_samples_val',
      'rir_paths',
      'background_paths',
      'steps',
      'target_recall',
    ]) {
      expect(training).toHaveProperty(field);
    }
    const wyoming = parseYaml(out.files.find((f) => f.name === 'wyoming-openwakeword.yaml')!.content);
    expect(wyoming).toMatchObject({
      uri: 'tcp://0.0.0.0:10400',
      preload_model: 'hey_nexus',
      custom_model_dir: '/custom',
    });
    expect(out.steps.join('\n')).toContain('--custom-model-dir /custom --preload-model hey_nexus');
  });

  it('gives the Mycroft Precise folder layout and the Porcupine console steps', async () => {
    const precise = parseYaml((await exportFor('precise')).files[0]!.content);
    expect(Object.keys(precise.folders)).toEqual([
      'hey-nexus/wake-word/',
      'hey-nexus/test/wake-word/',
      'hey-nexus/not-wake-word/',
      'hey-nexus/test/not-wake-word/',
    ]);
    expect(precise.commands[0]).toBe('precise-train -e 60 hey-nexus.net hey-nexus/');
    const porcupine = parseYaml((await exportFor('porcupine')).files[0]!.content);
    expect(porcupine.keyword_file).toBe('hey-nexus_en_linux_v3_0_0.ppn');
    expect(porcupine.placement).toContain('wake-words/porcupine/');
  });

  it('refuses an engine it does not know and unknown query fields', async () => {
    expect((await owner.get(`/api/wake-words/${wakeWordId}/export?engine=snowboy`)).status).toBe(400);
    expect((await owner.get(`/api/wake-words/${wakeWordId}/export?engine=precise&extra=1`)).status).toBe(400);
    expect(
      (await new Client(agent.url).get(`/api/wake-words/${wakeWordId}/export?engine=precise`)).status,
    ).toBe(401);
  });

  it('zips the accepted takes with a CSV and JSON manifest of device, speaker and quality', async () => {
    const res = await fetch(`${agent.url}/api/wake-words/${wakeWordId}/dataset`, {
      headers: { cookie: `nexus_session=${owner.cookie('nexus_session')}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('hey-nexus-dataset.zip');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const wavs = Object.keys(files).filter((name) => name.endsWith('.wav'));
    expect(wavs).toHaveLength(4);
    for (const name of wavs) expect(strFromU8(files[name]!.subarray(0, 4))).toBe('RIFF');
    const csv = strFromU8(files['hey-nexus/manifest.csv']!).trim().split('\r\n');
    expect(csv[0]).toBe(
      'file,id,device,speaker,source,verdict,durationMs,speechMs,snrDb,rmsDbfs,peakDbfs,clippingPercent,leadingSilenceMs,trailingSilenceMs,createdAt',
    );
    expect(csv).toHaveLength(5);
    expect(csv.some((line) => line.includes(',Kitchen array,Ben,recording,warning,'))).toBe(true);
    const manifest = JSON.parse(strFromU8(files['hey-nexus/manifest.json']!));
    expect(manifest.samples).toHaveLength(4);
    expect(manifest.samples[0]).toMatchObject({ device: expect.any(String), speaker: expect.any(String) });
    expect(manifest.samples[0].quality).toHaveProperty('snrDb');
  });

  it('deletes a wake word with its samples (admins only)', async () => {
    expect((await member.delete(`/api/wake-words/${wakeWordId}`)).status).toBe(403);
    expect((await owner.delete(`/api/wake-words/${wakeWordId}`)).status).toBe(204);
    expect((await owner.get(`/api/wake-words/${wakeWordId}`)).status).toBe(404);
  });
});
