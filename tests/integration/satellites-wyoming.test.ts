import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowRunSchema, type FlowRun } from '../../agent/src/contract/index.js';
import { satelliteSchema, type Satellite } from '../../agent/src/contract/satellites.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { KITCHEN_LIGHT_MODEL, kitchenLightVoiceFlow, nameTheLight } from '../fixtures/kitchen-light-flow.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { Recordings } from '../fixtures/recordings.js';
import { frame } from '../fixtures/wyoming-events.js';
import { startWyomingSatelliteSim, type WyomingSatelliteSim } from '../fixtures/wyoming-satellite-sim.js';
import { startWyomingSttSim, type WyomingSttSim } from '../fixtures/wyoming-stt-sim.js';
import { startWyomingTtsSim, type WyomingTtsSim } from '../fixtures/wyoming-tts-sim.js';

/**
 * Wyoming satellites (issue 15): the hub connects to a wyoming-satellite stand-in as a Wyoming
 * client, lists it, obeys mute and announce, and runs the voice flow that lists it on the audio it
 * streams after its wake word (an espeak-ng recording, then room noise), through the Wyoming STT
 * service (pocketsphinx), the model, Home Assistant, and the TTS service whose answer is played back.
 */
let agent: RunningAgent;
let ollama: OllamaApiSim;
let ha: HomeAssistantSim;
let stt: WyomingSttSim;
let tts: WyomingTtsSim;
let kitchen: WyomingSatelliteSim;
let owner: Client;
let member: Client;
let kitchenId: number;
let flowId: number;
const recordings = new Recordings();
let phrase: Buffer;
const hostile: net.Server[] = [];

beforeAll(async () => {
  phrase = recordings.read(recordings.pad(recordings.speak('turn on the kitchen light'), 0.3, 0));
  [ollama, ha, stt, tts, kitchen] = await Promise.all([
    startOllamaApiSim({ models: [{ name: KITCHEN_LIGHT_MODEL, size: 2_019_393_189, loaded: true }] }),
    startHomeAssistantSim(),
    startWyomingSttSim(),
    startWyomingTtsSim(),
    // Answers describe after 1.5 s, as a satellite waiting for its wake service does.
    startWyomingSatelliteSim({ recording: phrase, describeDelayMs: 1500, speed: 4 }),
  ]);
  ollama.answer = nameTheLight;
  agent = await startAgent({
    env: { OLLAMA_URL: ollama.url, HA_URL: ha.url, HA_TOKEN: ha.token, NEXUS_WYOMING_RETRY_MS: '100' },
  });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  member = new Client(agent.url);
  await signUp(member, { name: 'Member' });
  const saved = await owner.put('/api/speech/settings', {
    stt: { engine: 'wyoming', wyomingHost: '127.0.0.1', wyomingPort: stt.port, language: 'en' },
    tts: { engine: 'wyoming', host: '127.0.0.1', port: tts.port },
  });
  expect(saved.status, saved.text).toBe(200);
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  for (const server of hostile) server.close();
  await Promise.all([ollama?.stop(), ha?.stop(), stt?.close(), tts?.close(), kitchen?.stop()]);
  recordings.cleanup();
});

async function satellite(id: number): Promise<Satellite> {
  const res = await owner.get(`/api/devices/satellite/${id}`);
  expect(res.status, res.text).toBe(200);
  return satelliteSchema.parse(res.json);
}

async function runs(id: number): Promise<FlowRun[]> {
  const res = await owner.get(`/api/flows/${id}/runs`);
  expect(res.status, res.text).toBe(200);
  return (res.json as unknown[]).map((r) => flowRunSchema.parse(r));
}

async function addSatellite(port: number, name?: string): Promise<number> {
  const res = await owner.post('/api/devices/satellite/wyoming', { host: '127.0.0.1', port, name });
  expect(res.status, res.text).toBe(201);
  return (res.json as { id: number }).id;
}

async function voiceFlow(satellites: number[]): Promise<number> {
  const created = await owner.post('/api/flows', {
    ...kitchenLightVoiceFlow,
    name: 'Kitchen satellite',
    trigger: { type: 'voice', satellites },
    stages: [
      ...kitchenLightVoiceFlow.stages,
      { id: 'say', name: 'Answer', kind: 'tts', config: { text: 'Done: {{stages.stt.text}}' } },
    ],
  });
  expect(created.status, created.text).toBe(201);
  const id = (created.json as { id: number }).id;
  const active = await owner.put(`/api/flows/${id}/status`, { status: 'active' });
  expect(active.status, active.text).toBe(200);
  return id;
}

const online = (s: Satellite) => s.status === 'online';

describe('adding a Wyoming satellite', () => {
  it('is for admins, with a host and port that make sense, once per address', async () => {
    const asMember = await member.post('/api/devices/satellite/wyoming', {
      host: '127.0.0.1',
      port: kitchen.port,
    });
    expect(asMember.status).toBe(403);
    for (const bad of [
      { host: 'http://127.0.0.1', port: kitchen.port },
      { host: '127.0.0.1:10700' },
      { host: '127.0.0.1', port: 70_000 },
      { host: '', port: 10700 },
      { host: '127.0.0.1', port: 'ten' },
    ]) {
      const res = await owner.post('/api/devices/satellite/wyoming', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    kitchenId = await addSatellite(kitchen.port);
    const again = await owner.post('/api/devices/satellite/wyoming', {
      host: '127.0.0.1',
      port: kitchen.port,
    });
    expect(again.status).toBe(409);
  });

  it('connects: describe → info (after the satellite’s 1.5 s wait) → run-satellite; the list shows its name and area', async () => {
    const item = await waitFor(() => satellite(kitchenId), online, { what: 'the satellite online' });
    expect(item).toMatchObject({
      source: 'wyoming',
      name: 'Kitchen Pi',
      room: 'Kitchen',
      statusReason: null,
      firmwareVersion: '1.4.1',
      wyoming: {
        host: '127.0.0.1',
        port: kitchen.port,
        connection: 'connected',
        error: null,
        streaming: false,
      },
      controls: { mute: { value: false }, announce: true, volume: null, restart: false },
    });
    await waitFor(
      () => kitchen.state,
      (s) => s === 'running',
      { what: 'run-satellite' },
    );
    expect(kitchen.types().slice(0, 2)).toEqual(['describe', 'run-satellite']);
    const list = await member.get('/api/devices/satellite');
    expect(list.status).toBe(200);
    expect((list.json as Satellite[]).find((s) => s.id === kitchenId)).toMatchObject({ source: 'wyoming' });
  });
});

describe('a command from the satellite', () => {
  it('runs the voice flow listing it: transcript back to the satellite, the spoken answer played', async () => {
    flowId = await voiceFlow([kitchenId]);
    const heardBefore = stt.transcripts.length;
    const callsBefore = ha.serviceCalls.length;
    kitchen.wake();
    await waitFor(
      () => kitchen.played.length,
      (n) => n > 0,
      { what: 'the answer played', timeoutMs: 30_000 },
    );

    const run = (await runs(flowId))[0]!;
    expect(run).toMatchObject({
      trigger: 'voice',
      status: 'succeeded',
      transcript: 'turn on the kitchen light',
    });
    expect(run.input).toMatchObject({
      satellite: { id: kitchenId, name: 'Kitchen Pi' },
      audio: { format: 'wav' },
    });
    expect(run.stages.map((s) => s.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(stt.transcripts.length).toBe(heardBefore + 1);
    expect(stt.transcripts.at(-1)).toMatchObject({ rate: 16000, text: 'turn on the kitchen light' });
    expect(ha.serviceCalls.length).toBe(callsBefore + 1);
    expect(ha.serviceCalls.at(-1)!.target.entity_id).toEqual(['light.kitchen_ceiling']);

    // The hub ended the command itself (the satellite never sends audio-stop) and said so.
    const types = kitchen.types();
    expect(types).toContain('voice-stopped');
    const transcript = kitchen.received.find((e) => e.type === 'transcript');
    expect(transcript?.data.text).toBe('turn on the kitchen light');
    expect(kitchen.stoppedBy).toBe('transcript');
    // The answer: audio-start, 1024-sample chunks, audio-stop, in the format the hub gave.
    const played = kitchen.played.at(-1)!;
    expect(played).toMatchObject({ width: 2, channels: 1 });
    expect(played.pcm.length).toBeGreaterThan(played.rate * 2 * 0.5);
    const chunks = kitchen.received.filter((e) => e.type === 'audio-chunk');
    expect(chunks.length).toBe(Math.ceil(played.pcm.length / 2048));
    expect(types.lastIndexOf('audio-stop')).toBeGreaterThan(types.indexOf('transcript'));
  }, 45_000);

  it('a satellite that disconnects mid-stream fails the run with the reason, then comes back', async () => {
    const before = (await runs(flowId)).length;
    const connections = kitchen.connections;
    kitchen.disconnectMidStream(6);
    const run = await waitFor(
      async () => (await runs(flowId))[0]!,
      (r) => (before === 0 || r.id > 0) && r.status === 'failed',
      { what: 'the run failed' },
    );
    expect((await runs(flowId)).length).toBe(before + 1);
    expect(run.error).toContain('Satellite Kitchen Pi disconnected while streaming');
    expect(run.stages.every((s) => s.status === 'skipped')).toBe(true);
    await waitFor(
      () => kitchen.connections,
      (n) => n > connections,
      { what: 'a reconnect' },
    );
    await waitFor(() => satellite(kitchenId), online, { what: 'online again' });
  });

  it('no voice flow lists the satellite: it gets an error event and no run starts', async () => {
    const lonely = await startWyomingSatelliteSim({
      recording: phrase,
      name: 'Hall Pi',
      area: null,
      speed: 4,
    });
    try {
      const id = await addSatellite(lonely.port, 'Hall');
      const item = await waitFor(() => satellite(id), online, { what: 'Hall online' });
      expect(item).toMatchObject({ name: 'Hall', room: null });
      await waitFor(
        () => lonely.state,
        (s) => s === 'running',
        { what: 'run-satellite' },
      );
      const runsBefore = (await runs(flowId)).length;
      lonely.wake();
      const error = await waitFor(
        () => lonely.received.find((e) => e.type === 'error'),
        (e) => e !== undefined,
        { what: 'an error event' },
      );
      expect(error!.data.text).toContain('No active voice flow lists satellite Hall');
      expect(lonely.stoppedBy).toBe('error');
      expect((await runs(flowId)).length).toBe(runsBefore);
      expect(agent.logs.some((l) => l.includes('No active voice flow lists satellite Hall'))).toBe(true);
      expect((await owner.delete(`/api/devices/satellite/${id}`)).status).toBe(204);
    } finally {
      await lonely.stop();
    }
  });
});

describe('controls', () => {
  it('mute sends pause-satellite and is kept; unmute sends run-satellite (members may)', async () => {
    const muted = await member.post(`/api/devices/satellite/${kitchenId}/control`, {
      action: 'mute',
      value: true,
    });
    expect(muted.status, muted.text).toBe(200);
    expect(muted.json).toMatchObject({ controls: { mute: { value: true } } });
    await waitFor(
      () => kitchen.state,
      (s) => s === 'paused',
      { what: 'pause-satellite' },
    );
    const unmuted = await member.post(`/api/devices/satellite/${kitchenId}/control`, {
      action: 'mute',
      value: false,
    });
    expect(unmuted.status, unmuted.text).toBe(200);
    await waitFor(
      () => kitchen.state,
      (s) => s === 'running',
      { what: 'run-satellite' },
    );
    expect(kitchen.types().slice(-2)).toEqual(['pause-satellite', 'run-satellite']);
  });

  it('a muted satellite stays paused when it reconnects', async () => {
    await owner.post(`/api/devices/satellite/${kitchenId}/control`, { action: 'mute', value: true });
    await waitFor(
      () => kitchen.state,
      (s) => s === 'paused',
      { what: 'pause-satellite' },
    );
    const connections = kitchen.connections;
    await kitchen.stop();
    await kitchen.start();
    await waitFor(
      () => kitchen.connections,
      (n) => n > connections,
      { what: 'a reconnect' },
    );
    await waitFor(
      () => kitchen.types().at(-1),
      (t) => t === 'pause-satellite',
      { what: 'paused again' },
    );
    await owner.post(`/api/devices/satellite/${kitchenId}/control`, { action: 'mute', value: false });
    await waitFor(
      () => kitchen.state,
      (s) => s === 'running',
      { what: 'run-satellite' },
    );
  });

  it('announce speaks the text through the hub’s TTS and streams it to the satellite', async () => {
    const before = kitchen.played.length;
    const res = await member.post(`/api/devices/satellite/${kitchenId}/control`, {
      action: 'announce',
      value: 'Dinner is ready',
    });
    expect(res.status, res.text).toBe(200);
    await waitFor(
      () => kitchen.played.length,
      (n) => n > before,
      { what: 'the announcement played' },
    );
    expect(kitchen.played.at(-1)!.pcm.length).toBeGreaterThan(0);
    expect(tts.requests.at(-1)).toMatchObject({ text: 'Dinner is ready' });
  });

  it('volume, wake word, LED and restart: 409, the Wyoming protocol has none', async () => {
    for (const input of [
      { action: 'volume', value: 40 },
      { action: 'wake-word', value: 'hey_jarvis' },
      { action: 'led', value: { on: true } },
      { action: 'restart' },
    ]) {
      const res = await owner.post(`/api/devices/satellite/${kitchenId}/control`, input);
      expect(res.status, input.action).toBe(409);
      expect(res.json.message).toContain('Wyoming protocol has no');
    }
    const asMember = await member.post(`/api/devices/satellite/${kitchenId}/control`, { action: 'restart' });
    expect(asMember.status).toBe(403);
  });
});

describe('faults', () => {
  it('a satellite that goes away is offline with the reason and the next attempt; back, it reconnects', async () => {
    await kitchen.stop();
    const down = await waitFor(
      () => satellite(kitchenId),
      (s) => s.status === 'offline' && s.wyoming?.connection === 'disconnected',
      {
        what: 'offline',
      },
    );
    expect(down.statusReason).toMatch(/closed the connection|Cannot reach/);
    expect(down.wyoming!.error).not.toBeNull();
    await waitFor(
      () => satellite(kitchenId),
      (s) => /Cannot reach .*ECONNREFUSED.*retrying in \d+ s/.test(s.statusReason ?? ''),
      {
        what: 'a refused reconnect with its next attempt',
      },
    );
    await kitchen.start();
    const back = await waitFor(() => satellite(kitchenId), online, { what: 'online again' });
    expect(back.wyoming).toMatchObject({ connection: 'connected', error: null, nextRetryAt: null });
  });

  it('hostile peers (oversized header, garbage, huge payloads, endless chunks) do not crash or stall the agent', async () => {
    const peer = async (onConnection: (socket: net.Socket) => void) => {
      const server = net.createServer((socket) => {
        socket.on('error', () => {});
        onConnection(socket);
      });
      hostile.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as net.AddressInfo).port;
    };
    const info = frame('info', { satellite: { name: 'Evil', area: 'Cellar', version: '6.6.6' } });
    const oversized = await peer((s) => s.write(Buffer.alloc(1024 * 1024, 0x61)));
    const garbage = await peer((s) => s.write(Buffer.from([0, 255, 10, 1, 2, 3, 10])));
    const hugePayload = await peer((s) => {
      s.write(info);
      s.write(`${JSON.stringify({ type: 'audio-chunk', payload_length: 2 ** 40 })}\n`);
    });
    const notJsonData = await peer((s) =>
      s.write(`${JSON.stringify({ type: 'info', data_length: 5 })}\n{{{{{`),
    );
    let flooding = true;
    let floodSocket: net.Socket | null = null;
    const flood = await peer((s) => {
      s.write(info);
      floodSocket = s;
    });
    /** detection, run-pipeline, then audio chunks as fast as the hub reads them, without end. */
    const startFlood = (s: net.Socket) => {
      s.write(frame('detection', { name: 'x' }));
      s.write(frame('run-pipeline', { start_stage: 'asr', end_stage: 'tts' }));
      const chunk = frame('audio-chunk', { rate: 16000, width: 2, channels: 1 }, Buffer.alloc(2048, 0x7f));
      const many = Buffer.concat(Array.from({ length: 64 }, () => chunk));
      const pump = () => {
        while (flooding && !s.destroyed && s.write(many));
        if (flooding && !s.destroyed) s.once('drain', pump);
      };
      pump();
    };
    const ids = [];
    for (const port of [oversized, garbage, hugePayload, notJsonData, flood])
      ids.push(await addSatellite(port));
    const floodId = ids.at(-1)!;
    const evilFlow = await voiceFlow([floodId]);
    await waitFor(() => satellite(floodId), online, { what: 'the flooding peer connected' });
    startFlood(floodSocket!);

    const [big, junk, huge, notJson] = await Promise.all(
      ids.slice(0, 4).map((id) =>
        waitFor(
          () => satellite(id),
          (s) => s.wyoming?.error !== null && s.status === 'offline',
          {
            what: `satellite ${id} dropped`,
          },
        ),
      ),
    );
    expect(big!.wyoming!.error).toContain('header line that is too long');
    expect(junk!.wyoming!.error).toContain('not JSON');
    expect(huge!.wyoming!.error).toContain('payload that is too large');
    expect(notJson!.wyoming!.error).toContain('not JSON');
    // The flood: the command is cut at the length limits and its run ends; the agent keeps answering.
    await waitFor(
      async () => (await runs(evilFlow))[0]?.status,
      (s) => s === 'failed',
      {
        what: 'the flooded run ended',
        timeoutMs: 20_000,
      },
    );
    const started = performance.now();
    const health = await owner.get('/api/devices/satellite');
    expect(health.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);
    flooding = false;
    expect(agent.process.exitCode).toBeNull();
    for (const id of ids) expect((await owner.delete(`/api/devices/satellite/${id}`)).status).toBe(204);
    // Still the same agent, still connected to the real satellite.
    await waitFor(() => satellite(kitchenId), online, { what: 'kitchen still online' });
  }, 40_000);
});
