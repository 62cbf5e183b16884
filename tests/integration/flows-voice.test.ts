import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowRunSchema, type FlowRun } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { KITCHEN_LIGHT_MODEL, kitchenLightVoiceFlow, nameTheLight } from '../fixtures/kitchen-light-flow.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { STT_SIM_MODEL, startWyomingSttSim, type WyomingSttSim } from '../fixtures/wyoming-stt-sim.js';
import { startWyomingTtsSim, type WyomingTtsSim } from '../fixtures/wyoming-tts-sim.js';

const run = promisify(execFile);
const MODEL = KITCHEN_LIGHT_MODEL;

/**
 * The end-to-end voice run of issue #9: a spoken clip → VAD → speech to text (Wyoming, pocketsphinx
 * behind it) → the language model (Ollama simulator) → a Home Assistant service call observed by
 * the HA simulator; the run record keeps every stage, the clip and the transcript.
 */
let agent: RunningAgent;
let ollama: OllamaApiSim;
let ha: HomeAssistantSim;
let stt: WyomingSttSim;
let tts: WyomingTtsSim;
let owner: Client;
let dir: string;
/** "turn on the kitchen light" with 0.8 s of silence before and 1 s after, 16 kHz mono. */
let padded: Buffer;
let silence: Buffer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-voice-'));
  const raw = path.join(dir, 'raw.wav');
  const clip = path.join(dir, 'clip.wav');
  await run('espeak-ng', ['-w', raw, 'turn on the kitchen light']);
  await run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', clip, 'pad', '0.8', '1']);
  await run('sox', [
    '-n',
    '-r',
    '16000',
    '-c',
    '1',
    '-b',
    '16',
    path.join(dir, 'silence.wav'),
    'trim',
    '0',
    '1.5',
  ]);
  padded = fs.readFileSync(clip);
  silence = fs.readFileSync(path.join(dir, 'silence.wav'));

  [ollama, ha, stt, tts] = await Promise.all([
    startOllamaApiSim({ models: [{ name: MODEL, size: 2_019_393_189, loaded: true }] }),
    startHomeAssistantSim(),
    startWyomingSttSim(),
    startWyomingTtsSim(),
  ]);
  ollama.answer = nameTheLight;
  agent = await startAgent({ env: { OLLAMA_URL: ollama.url, HA_URL: ha.url, HA_TOKEN: ha.token } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  const saved = await owner.put('/api/speech/settings', {
    stt: { engine: 'wyoming', wyomingHost: '127.0.0.1', wyomingPort: stt.port, language: 'en' },
    tts: { engine: 'wyoming', host: '127.0.0.1', port: tts.port },
  });
  expect(saved.status, saved.text).toBe(200);
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  await Promise.all([ollama?.stop(), ha?.stop(), stt?.close(), tts?.close()]);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function createFlow(flow: unknown) {
  const res = await owner.post('/api/flows', flow);
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number };
}

async function runWithClip(flowId: number, wav: Buffer): Promise<FlowRun> {
  const res = await fetch(`${agent.url}/api/flows/${flowId}/run?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${owner.cookie('nexus_session')}` },
    body: new Uint8Array(wav),
  });
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return flowRunSchema.parse(body);
}

const voiceFlow = kitchenLightVoiceFlow;

describe('voice run', () => {
  it('"turn on the kitchen light" → VAD → STT → LLM → light.turn_on in Home Assistant', async () => {
    const flow = await createFlow(voiceFlow);
    const callsBefore = ha.serviceCalls.length;
    const result = await runWithClip(flow.id, padded);

    expect(result.error).toBeNull();
    expect(result).toMatchObject({ trigger: 'voice', status: 'succeeded', hasClip: true });
    expect(result.transcript).toBe('turn on the kitchen light');
    expect(result.stages.map((s) => [s.stageId, s.status])).toEqual([
      ['vad', 'succeeded'],
      ['stt', 'succeeded'],
      ['intent', 'succeeded'],
      ['switch', 'succeeded'],
    ]);
    for (const stage of result.stages) {
      expect(stage.input, stage.stageId).not.toBeNull();
      expect(stage.output, stage.stageId).not.toBeNull();
      expect(stage.durationMs, stage.stageId).toBeGreaterThanOrEqual(0);
    }
    const [vad, sttStage, intent] = result.stages as unknown as [
      { input: { bytes: number }; output: { speech: boolean; speechMs: number; durationMs: number } },
      { input: { bytes: number }; output: { text: string; engine: string; model: string; ms: number } },
      { input: { prompt: string }; output: { text: string } },
    ];
    // VAD found the phrase inside 3.3 s of audio and trimmed the silence before STT.
    expect(vad.input.bytes).toBe(padded.length);
    expect(vad.output.speech).toBe(true);
    expect(vad.output.durationMs).toBeGreaterThan(3000);
    expect(vad.output.speechMs).toBeGreaterThan(800);
    expect(vad.output.speechMs).toBeLessThan(2200);
    expect(sttStage.input.bytes).toBeLessThan(padded.length - 16000 * 2);
    expect(sttStage.output).toMatchObject({
      text: 'turn on the kitchen light',
      engine: 'wyoming',
      model: STT_SIM_MODEL,
    });
    expect(sttStage.output.ms).toBeGreaterThan(0);
    expect(intent.input.prompt).toBe('Which light does this command mean? "turn on the kitchen light"');
    expect(intent.output.text).toBe('light.kitchen_ceiling');

    // The Wyoming service got the trimmed clip as 16 kHz 16-bit mono in 1024-sample chunks.
    const heard = stt.transcripts.at(-1)!;
    expect(heard).toMatchObject({ rate: 16000, width: 2, channels: 1, text: 'turn on the kitchen light' });
    expect(heard.chunks).toBe(Math.ceil(heard.bytes / 2048));

    expect(ha.serviceCalls.length).toBe(callsBefore + 1);
    const call = ha.serviceCalls.at(-1)!;
    expect(call).toMatchObject({ domain: 'light', service: 'turn_on' });
    expect(call.target.entity_id).toEqual(['light.kitchen_ceiling']);

    // The run keeps the clip as sent, and the stored record reads back the same.
    const clip = await fetch(`${agent.url}/api/flows/runs/${result.id}/audio`, {
      headers: { cookie: `nexus_session=${owner.cookie('nexus_session')}` },
    });
    expect(clip.status).toBe(200);
    expect(Buffer.from(await clip.arrayBuffer()).equals(padded)).toBe(true);
    const stored = flowRunSchema.parse((await owner.get(`/api/flows/runs/${result.id}`)).json);
    expect(stored.transcript).toBe('turn on the kitchen light');
    expect(stored.stages[1]!.output).toMatchObject({ text: 'turn on the kitchen light' });
  });

  it('a clip without speech stops at VAD: no transcription, no model, no service call', async () => {
    const flow = await createFlow({ ...voiceFlow, name: 'Silence' });
    const heardBefore = stt.transcripts.length;
    const chatsBefore = ollama.chatRequests.length;
    const callsBefore = ha.serviceCalls.length;
    const result = await runWithClip(flow.id, silence);
    expect(result.status).toBe('failed');
    expect(result.stages[0]).toMatchObject({ stageId: 'vad', status: 'failed' });
    expect(result.stages[0]!.error).toContain('No speech');
    expect(result.stages.slice(1).map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(stt.transcripts.length).toBe(heardBefore);
    expect(ollama.chatRequests.length).toBe(chatsBefore);
    expect(ha.serviceCalls.length).toBe(callsBefore);
  });

  it('a failing speech service fails the STT stage with its message and skips the rest', async () => {
    const flow = await createFlow({ ...voiceFlow, name: 'Broken STT' });
    stt.failWith = 'out of memory';
    try {
      const result = await runWithClip(flow.id, padded);
      expect(result.status).toBe('failed');
      expect(result.stages[1]).toMatchObject({ stageId: 'stt', status: 'failed' });
      expect(result.stages[1]!.error).toContain('out of memory');
      expect(result.stages.slice(2).map((s) => s.status)).toEqual(['skipped', 'skipped']);
    } finally {
      stt.failWith = null;
    }
  });

  it('a TTS stage speaks the answer through Wyoming and the run keeps the speech', async () => {
    const flow = await createFlow({
      name: 'Answer aloud',
      trigger: { type: 'voice' },
      stages: [
        { id: 'vad', name: 'Trim', kind: 'vad', config: {} },
        { id: 'stt', name: 'Transcribe', kind: 'stt', config: {} },
        { id: 'say', name: 'Say it back', kind: 'tts', config: { text: 'You said {{stages.stt.text}}' } },
      ],
    });
    const result = await runWithClip(flow.id, padded);
    expect(result.status, result.error ?? '').toBe('succeeded');
    expect(result.hasSpeech).toBe(true);
    expect(tts.requests.at(-1)).toMatchObject({ text: 'You said turn on the kitchen light' });
    const speech = await fetch(`${agent.url}/api/flows/runs/${result.id}/audio?which=speech`, {
      headers: { cookie: `nexus_session=${owner.cookie('nexus_session')}` },
    });
    const wav = Buffer.from(await speech.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.length).toBeGreaterThan(44 + 22050);
  });
});

describe('voice from a satellite', () => {
  /** A satellite posts what it heard with its device token, as firmware would. */
  const fromSatellite = (
    flowId: number,
    satelliteId: number,
    token: string,
    body: Buffer,
    type = 'audio/wav',
  ) =>
    fetch(`${agent.url}/api/flows/${flowId}/run?wait=true&satellite=${satelliteId}`, {
      method: 'POST',
      headers: { 'content-type': type, authorization: `Bearer ${token}` },
      body: new Uint8Array(body),
    });

  it('runs an active voice flow that lists the satellite, as its owner, naming the satellite', async () => {
    const added = await owner.post('/api/devices/satellite', { name: 'Kitchen satellite' });
    expect(added.status, added.text).toBe(201);
    const { satellite, token } = added.json as { satellite: { id: number }; token: string };
    const other = (await owner.post('/api/devices/satellite', { name: 'Garage satellite' })).json as {
      satellite: { id: number };
      token: string;
    };
    const flow = await createFlow({
      ...voiceFlow,
      name: 'Kitchen satellite commands',
      trigger: { type: 'voice', satellites: [satellite.id] },
    });
    const fetched = (await owner.get(`/api/flows/${flow.id}`)).json;
    expect(fetched.trigger).toEqual({ type: 'voice', satellites: [satellite.id] });

    // Still a draft: not yet.
    expect((await fromSatellite(flow.id, satellite.id, token, padded)).status).toBe(409);
    expect((await owner.put(`/api/flows/${flow.id}/status`, { status: 'active' })).status).toBe(200);

    const callsBefore = ha.serviceCalls.length;
    const res = await fromSatellite(flow.id, satellite.id, token, padded);
    const body: unknown = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const result = flowRunSchema.parse(body);
    expect(result).toMatchObject({ trigger: 'voice', status: 'succeeded', hasClip: true });
    expect(result.transcript).toBe('turn on the kitchen light');
    expect(result.input).toMatchObject({ satellite: { id: satellite.id, name: 'Kitchen satellite' } });
    expect(ha.serviceCalls.length).toBe(callsBefore + 1);

    // A wrong token, a satellite the flow does not list, a body that is not a clip.
    expect((await fromSatellite(flow.id, satellite.id, `${token}x`, padded)).status).toBe(401);
    expect((await fromSatellite(flow.id, other.satellite.id, token, padded)).status).toBe(401);
    const unlisted = await fromSatellite(flow.id, other.satellite.id, other.token, padded);
    expect(unlisted.status).toBe(403);
    expect(((await unlisted.json()) as { message: string }).message).toBe(
      `Satellite Garage satellite may not start flow ${flow.id}`,
    );
    const json = await fromSatellite(
      flow.id,
      satellite.id,
      token,
      Buffer.from('{"input":{}}'),
      'application/json',
    );
    expect(json.status).toBe(415);
    expect(ha.serviceCalls.length).toBe(callsBefore + 1);
  });
});
