import { Hono } from 'hono';
import {
  SPEECH_ENGINE_HEADER,
  SPEECH_MS_HEADER,
  speechProbeInputSchema,
  speechSettingsInputSchema,
  synthesizeInputSchema,
  transcribeQuerySchema,
} from '../../contract/speech.js';
import type { AppEnv } from '../../http/app-env.js';
import { audioBodyLimit, isAudio } from '../../http/body-limits.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { HttpError } from '../../lib/http-error.js';
import type { AuditRecorder } from '../audit/index.js';
import type { SpeechService } from './speech.service.js';

/** Mounted at /api/speech. Everyone signed in reads the settings and tries the services; admins change and probe. */
export function speechRoutes(speech: SpeechService, audit?: AuditRecorder) {
  return new Hono<AppEnv>()
    .get('/settings', requireUser, (c) => c.json({ settings: speech.settings() }))
    .put('/settings', requireAdmin, validate('json', speechSettingsInputSchema), (c) => {
      const input = c.req.valid('json');
      const settings = speech.update(input);
      // Omitted keeps the stored key; a new key or null (removed) is a change worth recording.
      if (input.stt.apiKey !== undefined) {
        audit?.record({
          type: 'settings_secret_changed',
          target: 'speech.stt.api_key',
          details: { action: input.stt.apiKey === null ? 'removed' : 'set' },
        });
      }
      return c.json({ settings });
    })
    .post('/probe', requireAdmin, validate('json', speechProbeInputSchema), async (c) =>
      c.json({ probe: await speech.probe(c.req.valid('json')) }),
    )
    .post(
      '/transcribe',
      requireUser,
      async (c, next) => {
        // Before the body is read: a JSON or form body is not a clip.
        if (!isAudio(c.req.header('content-type')))
          throw new HttpError(415, 'Send the clip as a WAV file with Content-Type audio/wav');
        await next();
      },
      validate('query', transcribeQuerySchema),
      audioBodyLimit,
      async (c) => {
        const body = Buffer.from(await c.req.arrayBuffer());
        if (body.length === 0) throw new HttpError(400, 'The request holds no audio');
        const { language } = c.req.valid('query');
        return c.json({ transcription: await speech.transcribeWav(body, { language }) });
      },
    )
    .post('/synthesize', requireUser, validate('json', synthesizeInputSchema), async (c) => {
      const { text, voice } = c.req.valid('json');
      const result = await speech.synthesize(text, { voice });
      return c.body(new Uint8Array(result.wav), 200, {
        'content-type': 'audio/wav',
        'cache-control': 'no-store',
        [SPEECH_ENGINE_HEADER]: result.engine,
        [SPEECH_MS_HEADER]: String(Math.round(result.ms)),
      });
    });
}
