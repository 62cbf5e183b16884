import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { silentWav } from '../support/wav.js';

/**
 * A stored secret goes only to the origin it was saved for: an admin session (or whoever holds one)
 * that changes a peer hub's or the speech service's address must enter the token or key again, as for
 * Home Assistant and the LLM providers. Two loopback servers: A was saved with the secret, B is the
 * new address; B must never see it.
 */
const HUB_TOKEN = 'nxh_the-saved-peer-token-0123456789abcdefghijklmn';
const SPEECH_KEY = 'sk-the-saved-speech-key-0123456789';

interface Recorder {
  url: string;
  /** The Authorization header of every request it received (empty string when none). */
  authorizations: string[];
  close(): Promise<void>;
}

/** Answers like a Nexus hub (health, peer status) and like an OpenAI transcription endpoint. */
async function startRecorder(): Promise<Recorder> {
  const authorizations: string[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? '');
    req.resume();
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/api/health') return json(200, { status: 'ok', version: '1.0.0' });
    if (req.url === '/api/nexus/peer') {
      if (req.headers.authorization !== `Bearer ${HUB_TOKEN}`) return json(401, { message: 'no' });
      return json(200, {
        hubName: 'Cabin',
        hostname: 'cabin',
        version: '1.0.0',
        timeZone: 'UTC',
        status: {
          status: 'online',
          systemLoad: 1,
          memoryUsage: 10,
          networkStatus: 'connected',
          hostname: 'cabin',
          cpuTemperature: null,
          loadAverage: [0, 0, 0],
          uptime: 1,
          warnings: [],
          sampledAt: Date.now(),
        },
        services: [],
      });
    }
    if (req.url?.endsWith('/audio/transcriptions')) return json(200, { text: 'hello' });
    json(404, { message: 'not here' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a stored secret and a changed address', () => {
  let agent: RunningAgent;
  let admin: Client;
  let saved: Recorder;
  let other: Recorder;

  beforeAll(async () => {
    [agent, saved, other] = await Promise.all([startAgent(), startRecorder(), startRecorder()]);
    admin = new Client(agent.url);
    await signUp(admin);
  });

  afterAll(() => Promise.all([agent?.stop(), saved?.close(), other?.close()]));

  const sawToken = (r: Recorder, secret: string) => r.authorizations.some((a) => a.includes(secret));

  it('a peer hub’s token is not sent to its new address unless entered again', async () => {
    const added = await admin.post('/api/nexus/hubs', { name: 'Cabin', url: saved.url, token: HUB_TOKEN });
    expect(added.status, added.text).toBe(201);
    expect(sawToken(saved, HUB_TOKEN)).toBe(true);

    const moved = await admin.request('PATCH', `/api/nexus/hubs/${added.json.id}`, { url: other.url });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.json.message).toMatch(/Enter the access token again for the new address/);
    expect(sawToken(other, HUB_TOKEN)).toBe(false);
    // The hub still points where its token belongs, and refreshing asks only there.
    const refreshed = await admin.post(`/api/nexus/hubs/${added.json.id}/refresh`);
    expect(refreshed.json.url).toBe(saved.url);
    expect(sawToken(other, HUB_TOKEN)).toBe(false);

    // Another path on the same origin keeps the token; a token given with the new address is used.
    expect(
      (await admin.request('PATCH', `/api/nexus/hubs/${added.json.id}`, { url: `${saved.url}/` })).status,
    ).toBe(200);
    const withToken = await admin.request('PATCH', `/api/nexus/hubs/${added.json.id}`, {
      url: other.url,
      token: HUB_TOKEN,
    });
    expect(withToken.status, withToken.text).toBe(200);
    expect(sawToken(other, HUB_TOKEN)).toBe(true);
  });

  it('the speech service’s API key is not sent to its new address unless entered again', async () => {
    const stt = { engine: 'openai', model: 'whisper-1' };
    const first = await admin.put('/api/speech/settings', {
      stt: { ...stt, openaiBaseUrl: `${saved.url}/v1`, apiKey: SPEECH_KEY },
      tts: { engine: null },
    });
    expect(first.status, first.text).toBe(200);

    const moved = await admin.put('/api/speech/settings', {
      stt: { ...stt, openaiBaseUrl: `${other.url}/v1` },
      tts: { engine: null },
    });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.json.message).toMatch(/Enter the API key again for the new address/);

    const heard = await fetch(`${agent.url}/api/speech/transcribe`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${admin.cookie('nexus_session')}` },
      body: new Uint8Array(silentWav()),
    });
    expect(heard.status, await heard.text()).toBe(200);
    expect(sawToken(saved, SPEECH_KEY)).toBe(true);
    expect(other.authorizations.some((a) => a.includes(SPEECH_KEY))).toBe(false);
  });
});
