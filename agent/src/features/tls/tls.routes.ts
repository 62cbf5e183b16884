import { Hono } from 'hono';
import { tlsCertificateInputSchema } from '../../contract/tls.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { AuditRecorder } from '../audit/index.js';
import type { TlsService } from './tls.service.js';

/**
 * Mounted at /api/tls. The CA's fingerprint and the HTTPS port are for everyone signed in (members
 * install the CA on their phones too); the certificate in use and replacing it are the admins'.
 * No answer carries a private key.
 */
export function tlsRoutes(service: TlsService, audit: AuditRecorder) {
  return new Hono<AppEnv>()
    .get('/ca', requireUser, (c) => c.json(service.ca()))
    .get('/', requireAdmin, (c) => c.json(service.status()))
    .put('/certificate', requireAdmin, validate('json', tlsCertificateInputSchema), (c) =>
      c.json(service.setOwner(c.req.valid('json'), audit)),
    )
    .delete('/certificate', requireAdmin, (c) => c.json(service.clearOwner(audit)));
}

/**
 * GET /ca.crt: the hub CA's certificate, public, for devices to install before they trust the
 * hub's HTTPS. `application/x-pem-file` with a file name: phones offer to install it.
 */
export function caCertificateRoute(service: TlsService) {
  return new Hono<AppEnv>().get('/ca.crt', (c) => {
    c.header('Content-Type', 'application/x-pem-file');
    c.header('Content-Disposition', 'attachment; filename="nexus-hub-ca.crt"');
    c.header('Cache-Control', 'no-cache');
    return c.body(service.caPem());
  });
}
