import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { startWyomingTtsSim, type WyomingTtsSim } from '../fixtures/wyoming-tts-sim.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { cleanUpDocker, ensureDockerEngine, podman, TEST_IMAGE } from '../support/docker-engine.js';
import { Client } from '../support/http.js';

/**
 * Outside systems going away while in use and coming back: the agent lives, says what is wrong on its
 * status endpoints, ends the request in flight with the brief's error shape, and recovers by itself
 * (no restart) once the system is back where it was. Home Assistant's turn is in home-assistant.test.ts
 * ("faults"); a stream cut mid-way by Ollama is in llm.test.ts; here the whole system goes away.
 */

/**
 * A unix socket that forwards to the real engine's, which the test can cut (every connection closed,
 * nothing listening) and restore: the engine going away without stopping the shared Podman service.
 */
function engineProxy(target: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-engine-proxy-'));
  const socketPath = path.join(dir, 'docker.sock');
  const open = new Set<net.Socket>();
  let server: net.Server | null = null;
  const track = (s: net.Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      fs.rmSync(socketPath, { force: true });
      server = net.createServer((client) => {
        const upstream = net.connect(target);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  return {
    dockerHost: `unix://${socketPath}`,
    listen,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server!.close(() => resolve());
        server = null;
      }),
    async dispose() {
      if (server) await this.cut();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function liveSocket(agent: RunningAgent, client: Client) {
  const socket = new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, {
    headers: { cookie: `nexus_session=${client.cookie('nexus_session')}` },
  });
  const events: any[] = [];
  socket.on('message', (raw) => events.push(JSON.parse(String(raw))));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, events };
}

describe('the Docker engine goes away mid-use and comes back', () => {
  const name = `nx-${randomBytes(3).toString('hex')}-away`;
  let proxy: ReturnType<typeof engineProxy>;
  let agent: RunningAgent;
  let owner: Client;

  beforeAll(async () => {
    const real = ensureDockerEngine().replace(/^unix:\/\//, '');
    proxy = engineProxy(real);
    await proxy.listen();
    agent = await startAgent({ env: { DOCKER_HOST: proxy.dockerHost } });
    owner = new Client(agent.url);
    await signUp(owner);
    podman(
      'run',
      '-d',
      '--name',
      name,
      '--stop-timeout',
      '1',
      TEST_IMAGE,
      'sh',
      '-c',
      'i=0; while true; do echo "line $i"; i=$((i+1)); sleep 0.2; done',
    );
  });
  afterAll(async () => {
    await agent?.stop();
    await proxy?.dispose();
    cleanUpDocker({ containers: [name] });
  });

  it('keeps answering, says the engine is unreachable, refuses with 502/503, and follows logs again once it is back', async () => {
    expect((await owner.get('/api/docker/containers')).status).toBe(200);
    const { socket, events } = await liveSocket(agent, owner);
    try {
      socket.send(JSON.stringify({ type: 'subscribe', topic: `docker.logs.${name}` }));
      const logEvents = () => events.filter((e) => e.type === 'event' && e.topic === `docker.logs.${name}`);
      const lines = () => logEvents().filter((e) => e.data.kind === 'lines').length;
      await expect.poll(lines, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

      // The engine disappears with a log follow open.
      await proxy.cut();
      const statusesBefore = logEvents().filter((e) => e.data.kind === 'status').length;
      await expect
        .poll(() => logEvents().filter((e) => e.data.kind === 'status').length, { timeout: 10_000 })
        .toBeGreaterThan(statusesBefore);

      const list = await owner.get('/api/docker/containers');
      expect([502, 503, 504]).toContain(list.status);
      expect(typeof list.json.message).toBe('string');
      expect(list.json.message.length).toBeGreaterThan(0);
      const engine = await owner.get('/api/docker/engine');
      expect(engine.status).toBe(200);
      expect(engine.json).toMatchObject({ reachable: false });
      expect(engine.json.message).toMatch(/not reachable|cannot be reached|unreachable/i);
      // The agent itself lives and answers.
      expect(agent.process.exitCode).toBeNull();
      expect((await owner.get('/api/nexus/status')).status).toBe(200);

      // Back where it was: the next list works and the follow re-attaches by itself.
      await proxy.listen();
      await expect.poll(async () => (await owner.get('/api/docker/engine')).json.reachable).toBe(true);
      expect((await owner.get('/api/docker/containers')).status).toBe(200);
      const linesBefore = lines();
      await expect.poll(lines, { timeout: 15_000 }).toBeGreaterThan(linesBefore + 1);
      expect(
        logEvents().at(-1).data.kind === 'lines' || logEvents().some((e) => e.data.state === 'following'),
      ).toBe(true);
    } finally {
      socket.close();
    }
  }, 60_000);
});

describe('Ollama goes away mid-chat and comes back', () => {
  let ollama: OllamaApiSim;
  let agent: RunningAgent;
  let member: Client;

  beforeAll(async () => {
    ollama = await startOllamaApiSim({
      models: [{ name: 'llama3.2:3b', size: 2_019_393_189, loaded: true, contextLength: 131_072 }],
    });
    agent = await startAgent({ env: { OLLAMA_URL: ollama.url } });
    const owner = new Client(agent.url);
    await signUp(owner);
    member = new Client(agent.url);
    await signUp(member);
  });
  afterAll(async () => {
    await agent?.stop();
    await ollama?.close();
  });

  /** POSTs a chat and reads its event stream to the end, calling onDelta for each piece. */
  async function chat(onDelta: (n: number) => void = () => {}) {
    const res = await fetch(`${agent.url}/api/llm/chat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `nexus_session=${member.cookie('nexus_session')}`,
      },
      body: JSON.stringify({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'are you there' }] }),
    });
    if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
      return { status: res.status, json: await res.json(), events: [] as any[] };
    const events: any[] = [];
    const reader = res
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const event = JSON.parse(value.data);
      events.push(event);
      if (event.type === 'delta') onDelta(events.filter((e) => e.type === 'delta').length);
    }
    return { status: res.status, json: undefined, events };
  }

  it('ends the running chat with a 502 error event, reports Ollama offline, and chats again once it is back', async () => {
    // The model holds its answer after two pieces; Ollama goes away right then.
    let open!: () => void;
    ollama.gate = { at: 2, until: new Promise<void>((resolve) => (open = resolve)) };
    let stopping: Promise<void> | null = null;
    const broken = await chat((n) => {
      if (n === 2 && !stopping) stopping = ollama.stop();
    });
    ollama.gate = null;
    open();
    await stopping;
    expect(broken.events.filter((e) => e.type === 'delta')).toHaveLength(2);
    expect(broken.events.at(-1)).toMatchObject({ type: 'error', status: 502 });
    expect(typeof broken.events.at(-1).message).toBe('string');

    // Gone: a clear state on the status endpoint, a clear refusal, and the agent alive.
    const pipeline = await member.get('/api/llm/pipeline/status');
    expect(pipeline.status).toBe(200);
    const provider = pipeline.json.providers.find((p: { name: string }) => p.name === 'ollama');
    expect(provider).toMatchObject({ status: 'offline' });
    expect(provider.error).toMatch(/cannot be reached/);
    const refused = await chat();
    expect(refused.status).toBe(502);
    expect(refused.json.message).toMatch(/cannot be reached/);
    expect(agent.process.exitCode).toBeNull();

    // Back on the same address: the next chat works, no restart, and the status says so.
    await ollama.start();
    const again = await chat();
    expect(again.status).toBe(200);
    expect(again.events.at(-1)).toMatchObject({ type: 'done' });
    await expect
      .poll(
        async () =>
          (await member.get('/api/llm/pipeline/status')).json.providers.find(
            (p: { name: string }) => p.name === 'ollama',
          ).status,
        // The status is cached for 3 s (llm-status.service.ts).
        { timeout: 10_000 },
      )
      .toBe('online');
  }, 60_000);
});

describe('a speech service goes away and comes back', () => {
  let tts: WyomingTtsSim;
  let agent: RunningAgent;
  let admin: Client;

  beforeAll(async () => {
    tts = await startWyomingTtsSim();
    agent = await startAgent();
    admin = new Client(agent.url);
    await signUp(admin);
    const saved = await admin.put('/api/speech/settings', {
      stt: { engine: null },
      tts: { engine: 'wyoming', host: '127.0.0.1', port: tts.port, voice: 'en-us' },
    });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(async () => {
    await agent?.stop();
    await tts?.close();
  });

  it('answers 502 saying the service cannot be reached, then speaks again once it is back on its port', async () => {
    const say = () => admin.post('/api/speech/synthesize', { text: 'the kitchen light is on' });
    expect((await say()).status).toBe(200);

    const port = tts.port;
    await tts.close();
    const down = await say();
    expect(down.status).toBe(502);
    expect(down.json.message).toContain('cannot be reached');
    expect(agent.process.exitCode).toBeNull();

    tts = await startWyomingTtsSim({ port });
    const back = await say();
    expect(back.status, back.text).toBe(200);
  }, 60_000);
});
