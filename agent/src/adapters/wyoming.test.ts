import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SAMPLES_PER_CHUNK,
  WyomingError,
  WyomingEventParser,
  createWyomingClient,
  encodeEvent,
  type WyomingEvent,
} from './wyoming.js';

describe('Wyoming framing', () => {
  it('writes a header line with data_length and payload_length, then the data, then the payload', () => {
    const bytes = encodeEvent({
      type: 'audio-chunk',
      data: { rate: 16000 },
      payload: Buffer.from([1, 2, 3]),
    });
    const newline = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.subarray(0, newline).toString());
    expect(header).toMatchObject({ type: 'audio-chunk', data_length: 14, payload_length: 3 });
    expect(typeof header.version).toBe('string');
    expect(bytes.subarray(newline + 1, newline + 15).toString()).toBe('{"rate":16000}');
    expect([...bytes.subarray(newline + 15)]).toEqual([1, 2, 3]);
  });

  it('leaves out the lengths of an event without data or payload', () => {
    const header = JSON.parse(encodeEvent({ type: 'describe' }).toString());
    expect(header.data_length).toBeUndefined();
    expect(header.payload_length).toBeUndefined();
  });

  it('reads events split across reads one byte at a time', () => {
    const bytes = Buffer.concat([
      encodeEvent({ type: 'transcript', data: { text: 'turn on the kitchen light' } }),
      encodeEvent({
        type: 'audio-chunk',
        data: { rate: 16000, width: 2, channels: 1 },
        payload: Buffer.alloc(10, 7),
      }),
    ]);
    const parser = new WyomingEventParser();
    const events: WyomingEvent[] = [];
    for (const byte of bytes) events.push(...parser.push(Buffer.from([byte])));
    expect(events.map((e) => e.type)).toEqual(['transcript', 'audio-chunk']);
    expect(events[0]!.data.text).toBe('turn on the kitchen light');
    expect(events[1]!.payload).toEqual(Buffer.alloc(10, 7));
    expect(parser.pending).toBe(0);
  });

  it('reads several events from one read', () => {
    const bytes = Buffer.concat([
      encodeEvent({ type: 'audio-start', data: { rate: 22050, width: 2, channels: 1 } }),
      encodeEvent({
        type: 'audio-chunk',
        data: { rate: 22050, width: 2, channels: 1 },
        payload: Buffer.alloc(4),
      }),
      encodeEvent({ type: 'audio-stop' }),
    ]);
    const events = new WyomingEventParser().push(bytes);
    expect(events.map((e) => e.type)).toEqual(['audio-start', 'audio-chunk', 'audio-stop']);
    expect(events[2]!.payload).toBeNull();
  });

  it('merges the data section over the header data, as the protocol says', () => {
    const line = JSON.stringify({ type: 'info', data: { asr: [], keep: 1 }, data_length: 12 }) + '\n';
    const events = new WyomingEventParser().push(
      Buffer.concat([Buffer.from(line), Buffer.from('{"asr":[1]} ')]),
    );
    expect(events[0]!.data).toEqual({ asr: [1], keep: 1 });
  });

  it('reads a large payload that arrives in many pieces', () => {
    const payload = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < payload.length; i++) payload[i] = i % 251;
    const bytes = encodeEvent({ type: 'audio-chunk', data: { rate: 16000, width: 2, channels: 1 }, payload });
    const parser = new WyomingEventParser();
    const events: WyomingEvent[] = [];
    for (let at = 0; at < bytes.length; at += 65_536)
      events.push(...parser.push(bytes.subarray(at, at + 65_536)));
    expect(events).toHaveLength(1);
    expect(events[0]!.payload!.equals(payload)).toBe(true);
  });

  it('refuses a header that is not JSON, and one without a type', () => {
    expect(() => new WyomingEventParser().push(Buffer.from('hello\n'))).toThrow(WyomingError);
    expect(() => new WyomingEventParser().push(Buffer.from('{"data":{}}\n'))).toThrow(/without a type/);
  });
});

/** A scripted Wyoming service on a loopback port: `answer` sees each event the client sends. */
const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(
  answer: (event: WyomingEvent, reply: (e: Parameters<typeof encodeEvent>[0]) => void) => void,
) {
  const received: WyomingEvent[] = [];
  const server = net.createServer((socket) => {
    const parser = new WyomingEventParser();
    socket.on('data', (chunk) => {
      for (const event of parser.push(chunk)) {
        received.push(event);
        answer(event, (e) => socket.write(encodeEvent(e)));
      }
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, received };
}

describe('Wyoming client', () => {
  it('describe lists the programs and their models', async () => {
    const { port } = await serve((event, reply) => {
      if (event.type === 'describe')
        reply({
          type: 'info',
          data: {
            asr: [
              {
                name: 'faster-whisper',
                installed: true,
                attribution: { name: 'x', url: 'https://example.com' },
                models: [{ name: 'tiny-int8', languages: ['en'], installed: true, description: 'tiny' }],
              },
            ],
            tts: [
              {
                name: 'piper',
                installed: true,
                voices: [{ name: 'en_US-lessac-medium', languages: ['en_US'] }],
              },
            ],
          },
        });
    });
    const programs = await createWyomingClient({ host: '127.0.0.1', port }).describe();
    expect(programs).toMatchObject([
      {
        kind: 'asr',
        name: 'faster-whisper',
        models: [{ name: 'tiny-int8', languages: ['en'], installed: true }],
      },
      { kind: 'tts', name: 'piper', models: [{ name: 'en_US-lessac-medium' }] },
    ]);
  });

  it('transcribe streams the audio in 1024-sample chunks and returns the transcript', async () => {
    const { port, received } = await serve((event, reply) => {
      if (event.type === 'audio-stop') reply({ type: 'transcript', data: { text: 'what time is it' } });
    });
    const pcm = Buffer.alloc(2 * (SAMPLES_PER_CHUNK * 3 + 10));
    const result = await createWyomingClient({ host: '127.0.0.1', port }).transcribe(
      { pcm, rate: 16000, width: 2, channels: 1 },
      { language: 'en' },
    );
    expect(result.text).toBe('what time is it');
    expect(received.map((e) => e.type)).toEqual([
      'transcribe',
      'audio-start',
      'audio-chunk',
      'audio-chunk',
      'audio-chunk',
      'audio-chunk',
      'audio-stop',
    ]);
    expect(received[0]!.data).toEqual({ language: 'en' });
    expect(received[2]!.payload!.length).toBe(SAMPLES_PER_CHUNK * 2);
    expect(received[5]!.payload!.length).toBe(20);
    expect(received[2]!.data).toMatchObject({ rate: 16000, width: 2, channels: 1 });
  });

  it('synthesize assembles the streamed chunks', async () => {
    const { port, received } = await serve((event, reply) => {
      if (event.type !== 'synthesize') return;
      const format = { rate: 22050, width: 2, channels: 1 };
      reply({ type: 'audio-start', data: format });
      reply({ type: 'audio-chunk', data: format, payload: Buffer.alloc(100, 1) });
      reply({ type: 'audio-chunk', data: format, payload: Buffer.alloc(50, 2) });
      reply({ type: 'audio-stop' });
    });
    const audio = await createWyomingClient({ host: '127.0.0.1', port }).synthesize('hello', { voice: 'v1' });
    expect(audio).toMatchObject({ rate: 22050, width: 2, channels: 1 });
    expect(audio.pcm.length).toBe(150);
    expect(received[0]!.data).toEqual({ text: 'hello', voice: { name: 'v1' } });
  });

  it('says when the service cannot be reached', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    await expect(createWyomingClient({ host: '127.0.0.1', port }).describe()).rejects.toMatchObject({
      kind: 'unreachable',
      message: expect.stringContaining(`127.0.0.1:${port} cannot be reached`),
    });
  });

  it('gives up after the timeout when the service does not answer', async () => {
    const { port } = await serve(() => {});
    await expect(
      createWyomingClient({ host: '127.0.0.1', port, timeoutMs: 200 }).describe(),
    ).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('did not finish within 200 ms'),
    });
  });

  it("passes on the service's error event", async () => {
    const { port } = await serve((event, reply) => {
      if (event.type === 'synthesize') reply({ type: 'error', data: { text: 'no such voice', code: 'x' } });
    });
    await expect(createWyomingClient({ host: '127.0.0.1', port }).synthesize('hi')).rejects.toMatchObject({
      kind: 'service',
      message: expect.stringContaining('no such voice'),
    });
  });
});
