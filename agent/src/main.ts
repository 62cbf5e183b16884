import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { Server as TlsServer } from 'node:tls';
import { WebSocketServer } from 'ws';
import { loadEnv } from './env.js';
import { openDatabase } from './db/client.js';
import { LogRing, createLogger } from './lib/logger.js';
import { installProcessGuards } from './lib/process-guards.js';
import { APP_VERSION } from './lib/version.js';
import { createSystemInfo } from './adapters/system-info.js';
import { createMetricsSampler } from './features/metrics/metrics-sampler.js';
import { hostCheckFor } from './http/host-check.js';
import { createLiveHub } from './live/hub.js';
import { describeStartupFailure } from './lib/startup-error.js';
import { openSecretBox } from './db/secret-key.js';
import { createApp } from './app.js';
import { createHomeAssistantAdapter } from './adapters/home-assistant.js';
import { createDockerAdapter } from './adapters/docker.js';
import { createSmtpMailer } from './adapters/mailer.js';
import { createSessionService, startSessionPurge } from './features/auth/session.service.js';
import { applyPendingRestore } from './features/backups/restore-state.js';
import { damagedDatabaseMessage, isDamagedDatabase } from './features/backups/way-back.js';
import { createTlsService } from './features/tls/tls.service.js';
import { inBackground } from './lib/background.js';

/** How long in-flight requests may take to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

const env = loadEnv();
const logRing = new LogRing();
const log = createLogger(env.LOG_LEVEL, logRing);
// A forgotten promise is logged (and ends a test run's agent, so the test that caused it fails).
installProcessGuards(process, log, { exitOnUnhandledRejection: env.NODE_ENV === 'test' });
const { handle, secrets } = openStorage();
/** The database and the key of its secrets; a data directory the agent cannot use ends the start with its reason. */
function openStorage() {
  try {
    // A restore (or its revert) staged before the restart takes effect before the database opens.
    const restored = applyPendingRestore(env.dataDir);
    if (restored) log.warn({ dataDir: env.dataDir }, restored);
    const handle = openDatabase(env.dataDir);
    // The restored database holds the sessions of the day it was backed up: browsers that kept one
    // would be signed in to data they may no longer be meant to see. Everyone signs in again.
    if (restored) handle.sqlite.prepare('DELETE FROM sessions').run();
    return { handle, secrets: openSecretBox(env.dataDir, handle) };
  } catch (error) {
    // A damaged database is never recreated: the message names the newest backup and how to restore it.
    const reason = isDamagedDatabase(error)
      ? damagedDatabaseMessage(env.dataDir, error)
      : describeStartupFailure(error, env.dataDir);
    if (reason === null) throw error;
    log.fatal(reason);
    process.stderr.write(`nexus-agent: ${reason}\n`);
    process.exit(1);
  }
}
const webDist = env.NEXUS_WEB_DIST
  ? path.resolve(env.NEXUS_WEB_DIST)
  : fileURLToPath(new URL('../../web/dist', import.meta.url));

const sessions = createSessionService(handle.db);
startSessionPurge(sessions, (err) => log.error({ err }, 'purging expired sessions failed'));

const mailer = env.SMTP_URL && env.SMTP_FROM ? createSmtpMailer(env.SMTP_URL, env.SMTP_FROM) : null;
if (mailer && !env.NEXUS_PUBLIC_URL) {
  log.warn('SMTP is configured but NEXUS_PUBLIC_URL is not: reset links cannot be e-mailed without it');
}

const systemInfo = createSystemInfo({ hostRoot: env.NEXUS_HOST_ROOT });
const sampler = createMetricsSampler({ info: systemInfo, log, version: APP_VERSION });
sampler.start();
const live = createLiveHub({ log });
// One Host check (and its memo) for the API and the hot reads answered before it.
const hostCheck = hostCheckFor(env, systemInfo.hostname());

/** What the features ask to have stopped on shutdown. */
const stops: Array<() => void> = [];

// The hub's CA and HTTPS certificate (issue 21): made at first start, issued again when the
// machine's names or addresses change or the certificate nears its end.
const tls = createTlsService({
  dataDir: env.dataDir,
  db: handle.db,
  secrets,
  log,
  hostname: () => systemInfo.hostname(),
});
try {
  await tls.start();
} catch (error) {
  // A full or read-only data directory ends the start with its reason, as the database's does.
  const reason = describeStartupFailure(error, env.dataDir);
  if (reason === null) throw error;
  log.fatal(reason);
  process.stderr.write(`nexus-agent: ${reason}\n`);
  process.exit(1);
}
stops.push(
  tls.startPeriodicCheck((task) => inBackground(log, 'checking the HTTPS certificate’s names', task)),
);
const app = createApp({
  env,
  db: handle.db,
  log,
  secrets,
  sessions,
  webDist,
  mailer,
  system: { info: systemInfo, sampler },
  live,
  logRing,
  homeAssistant: createHomeAssistantAdapter(),
  docker: createDockerAdapter(env.DOCKER_HOST),
  hostCheck,
  tls,
  onShutdown: (stop) => stops.push(stop),
  // After a restore is staged: close gracefully, exit 75; systemd (Restart=on-failure) and compose
  // (restart: unless-stopped) start the agent again, which applies it before opening the database.
  restart: () => shutdown('restart', EXIT_RESTART),
});

/** Browsers send only subscribe/unsubscribe messages: a few hundred bytes. */
const LIVE_MAX_MESSAGE_BYTES = 64 * 1024;
const wss = new WebSocketServer({ noServer: true, maxPayload: LIVE_MAX_MESSAGE_BYTES });

// The dashboard's most frequent poll, answered before Hono when the caller is signed in (createApp
// builds them with the API's session and Host checks).
const hotReads = app.hotReads;

const server = serve(
  {
    fetch: app.fetch,
    port: env.PORT,
    hostname: env.HOST,
    websocket: { server: wss },
    createServer: hotReads.createServer,
  },
  (info) => {
    log.info(
      { port: info.port, host: env.HOST, dataDir: env.dataDir },
      `Nexus agent listening on ${env.HOST}:${info.port}`,
    );
  },
);

/**
 * The same app over TLS (1.2 and newer), with its own WebSocket server: @hono/node-server closes a
 * server's WebSocket server when that server closes.
 */
const secureServer = serve(
  {
    fetch: app.fetch,
    port: env.HTTPS_PORT,
    hostname: env.HOST,
    websocket: { server: new WebSocketServer({ noServer: true, maxPayload: LIVE_MAX_MESSAGE_BYTES }) },
    createServer: hotReads.createSecureServer,
    serverOptions: { ...tls.credentials(), minVersion: 'TLSv1.2' },
  },
  (info) => {
    tls.setHttpsPort(info.port);
    log.info(
      { httpsPort: info.port, host: env.HOST },
      `Nexus agent listening for HTTPS on ${env.HOST}:${info.port}`,
    );
  },
);
// A taken or privileged HTTPS port must not take the console down with it: plain HTTP stays up and
// the log says why HTTPS is missing.
secureServer.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
  log.error(
    { err, httpsPort: env.HTTPS_PORT },
    `HTTPS could not listen on port ${env.HTTPS_PORT} (${err.code}); the console is on plain HTTP only. Set HTTPS_PORT to a free port.`,
  );
});
// A new hub certificate (names changed) or the owner's replaces the one presented, without a restart.
tls.onChange((credentials) =>
  (secureServer as TlsServer).setSecureContext({ ...credentials, minVersion: 'TLSv1.2' }),
);

/** The exit code of a deliberate restart (EX_TEMPFAIL): not 0, so that Restart=on-failure restarts. */
const EXIT_RESTART = 75;
let stopping = false;
function shutdown(signal: string, code = 0) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  sampler.stop();
  for (const stop of stops) stop();
  live.closeAll();
  const force = setTimeout(() => {
    log.warn('in-flight requests did not finish in time; exiting');
    handle.close();
    process.exit(code || 1);
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  let open = 2;
  const closed = () => {
    if (--open > 0) return;
    handle.close();
    log.info('stopped');
    process.exit(code);
  };
  server.close(closed);
  secureServer.close(closed);
  // Keep-alive connections would hold close() open; idle ones can go now.
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  if ('closeIdleConnections' in secureServer) secureServer.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
