import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  createWakeWordInputSchema,
  crowdsourceDeleteInputSchema,
  crowdsourceUploadQuerySchema,
  exportQuerySchema,
  reviewSampleInputSchema,
  sampleListQuerySchema,
  sampleUploadQuerySchema,
  updateWakeWordInputSchema,
} from '../../contract/wake-words.js';
import type { AppEnv } from '../../http/app-env.js';
import { audioBodyLimit } from '../../http/body-limits.js';
import {
  checksCredential,
  requireAdmin,
  requireUser,
  type SatelliteAuthenticator,
} from '../../http/guards.js';
import { clientAddress } from '../../http/request-info.js';
import { validate } from '../../http/validate.js';
import { HttpError, unauthorized } from '../../lib/http-error.js';
import {
  CROWDSOURCE_DELETIONS_PER_HOUR,
  CROWDSOURCE_UPLOADS_PER_HOUR,
  createAddressLimiter,
} from './crowdsource-limits.js';
import type { SampleOrigin, WakeWordsService } from './wake-words.service.js';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const sampleParam = idParam.extend({
  sampleId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const slugParam = z.object({ wakeWord: z.string().regex(/^[a-z0-9-]{1,80}$/, 'Not a wake word address') });

/** The WAV content types browsers and tools send. */
const WAV_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'];

async function wavBody(c: Context): Promise<Uint8Array> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!WAV_TYPES.includes(type)) {
    throw new HttpError(415, 'Send the take as PCM WAV with Content-Type audio/wav');
  }
  const body = new Uint8Array(await c.req.arrayBuffer());
  if (body.length === 0) throw new HttpError(400, 'The request has no audio');
  return body;
}

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

/** Satellites authenticate with their device token (the satellites feature checks it). */

interface UploaderEnv {
  Variables: AppEnv['Variables'] & { uploader: SampleOrigin };
}

/** `/api/wake-words`: wake words, their samples and what engines need. */
export function wakeWordsRoutes(
  service: WakeWordsService,
  opts: { authenticateSatellite?: SatelliteAuthenticator },
) {
  // A signed-in user records in the console; a satellite sends its own takes with ?satellite=<id>
  // and its bearer token, and its name becomes the device.
  const signedInOrSatellite = checksCredential(
    createMiddleware<UploaderEnv>(async (c, next) => {
      const satelliteId = c.req.query('satellite');
      const user = c.get('user');
      if (satelliteId !== undefined && opts.authenticateSatellite) {
        const id = Number(satelliteId);
        if (!Number.isSafeInteger(id) || id <= 0) throw unauthorized('Invalid satellite token');
        const satellite = opts.authenticateSatellite(id, bearerToken(c.req.header('authorization')));
        c.set('uploader', { source: 'satellite', device: satellite.name });
      } else if (user) {
        c.set('uploader', { source: 'recording', userId: user.id, speaker: user.name || undefined });
      } else {
        throw unauthorized();
      }
      await next();
    }),
    'Signed in or satellite token',
  );

  return (
    new Hono<AppEnv>()
      .get('/', requireUser, (c) => c.json(service.list(c.get('user'))))
      .post('/', requireAdmin, validate('json', createWakeWordInputSchema), (c) =>
        c.json(service.create(c.req.valid('json'), c.get('user')), 201),
      )
      .get('/:id', requireUser, validate('param', idParam), (c) =>
        c.json(service.get(c.req.valid('param').id, c.get('user'))),
      )
      .patch(
        '/:id',
        requireAdmin,
        validate('param', idParam),
        validate('json', updateWakeWordInputSchema),
        (c) => c.json(service.update(c.req.valid('param').id, c.req.valid('json'), c.get('user'))),
      )
      .delete('/:id', requireAdmin, validate('param', idParam), (c) => {
        service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      })
      .get(
        '/:id/samples',
        requireUser,
        validate('param', idParam),
        validate('query', sampleListQuerySchema),
        (c) => c.json(service.samples(c.req.valid('param').id, c.req.valid('query'), c.get('user'))),
      )
      .post(
        '/:id/samples',
        validate('param', idParam),
        signedInOrSatellite,
        validate('query', sampleUploadQuerySchema),
        audioBodyLimit,
        async (c) => {
          const { device, speaker } = c.req.valid('query');
          const uploader = c.get('uploader');
          const body = await wavBody(c);
          const sample = service.addSample(c.req.valid('param').id, body, {
            ...uploader,
            device: device ?? uploader.device,
            speaker: speaker ?? uploader.speaker,
          });
          return c.json(sample, 201);
        },
      )
      .get('/:id/samples/:sampleId/audio', requireUser, validate('param', sampleParam), (c) => {
        const { id, sampleId } = c.req.valid('param');
        const wav = service.sampleAudio(id, sampleId, c.get('user'));
        return c.body(new Uint8Array(wav), 200, {
          'Content-Type': 'audio/wav',
          'Content-Disposition': `inline; filename="sample-${sampleId}.wav"`,
          'Cache-Control': 'private, max-age=3600',
        });
      })
      .patch(
        '/:id/samples/:sampleId',
        requireUser,
        validate('param', sampleParam),
        validate('json', reviewSampleInputSchema),
        (c) => {
          const { id, sampleId } = c.req.valid('param');
          return c.json(service.review(id, sampleId, c.req.valid('json').status, c.get('user')));
        },
      )
      .delete('/:id/samples/:sampleId', requireUser, validate('param', sampleParam), (c) => {
        const { id, sampleId } = c.req.valid('param');
        service.removeSample(id, sampleId, c.get('user'));
        return c.body(null, 204);
      })
      .get(
        '/:id/export',
        requireUser,
        validate('param', idParam),
        validate('query', exportQuerySchema),
        (c) => c.json(service.exportEngine(c.req.valid('param').id, c.req.valid('query').engine)),
      )
      // Every accepted take of every speaker: the household's voices, so admins only.
      .get('/:id/dataset', requireAdmin, validate('param', idParam), (c) => {
        const { fileName, zip } = service.exportDataset(c.req.valid('param').id);
        return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename="${fileName}"`,
        });
      })
  );
}

/** `/api/crowdsource`: open to signed-out visitors, limited per client address. */
export function crowdsourceRoutes(
  service: WakeWordsService,
  opts: { trustProxy: boolean; now?: () => number },
) {
  const uploads = createAddressLimiter(CROWDSOURCE_UPLOADS_PER_HOUR, 'uploads', opts.now);
  const deletions = createAddressLimiter(CROWDSOURCE_DELETIONS_PER_HOUR, 'deletion requests', opts.now);
  return new Hono<AppEnv>()
    .get('/', (c) => c.json(service.openWakeWords()))
    .get('/:wakeWord', validate('param', slugParam), (c) =>
      c.json(service.openWakeWord(c.req.valid('param').wakeWord)),
    )
    .post(
      '/:wakeWord/samples',
      validate('param', slugParam),
      validate('query', crowdsourceUploadQuerySchema),
      audioBodyLimit,
      async (c) => {
        const { consent, speaker, device } = c.req.valid('query');
        if (consent !== 'true') {
          throw new HttpError(400, 'consent=true is required: read and accept the consent first');
        }
        uploads.take(clientAddress(c, opts.trustProxy));
        const body = await wavBody(c);
        return c.json(service.contribute(c.req.valid('param').wakeWord, body, { speaker, device }), 201);
      },
    )
    .post('/deletions', validate('json', crowdsourceDeleteInputSchema), (c) => {
      deletions.take(clientAddress(c, opts.trustProxy));
      service.deleteContribution(c.req.valid('json').token);
      return c.body(null, 204);
    });
}
