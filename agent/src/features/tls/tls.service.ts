import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TlsCa, TlsCertificateInput, TlsStatus } from '../../contract/tls.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditRecorder } from '../audit/index.js';
import { createSettingsRepository } from '../settings/index.js';
import { hubNames, sameNames, type HubNames } from './hub-names.js';
import { checkOwnerCertificate } from './owner-certificate.js';
import {
  certificateNotAfter,
  createCa,
  describeCertificate,
  issueServerCertificate,
  splitPem,
  type PemPair,
} from './x509.js';

/** The hub's server certificate is issued again this long before it expires. */
export const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;
/** How often the names and addresses are compared with the certificate's (a DHCP lease changes the address). */
export const NAMES_CHECK_MS = 5 * 60 * 1000;

/** What the HTTPS server presents: node:tls's key and cert options. */
export interface TlsCredentials {
  key: string;
  cert: string;
}

/** Where the owner's certificate is kept: the settings table, the key sealed with the hub's secret box. */
const OWNER_SETTING = 'tls.owner';
const ownerSettingSchema = z.object({
  certificate: z.string(),
  privateKeySealed: z.string(),
  installedAt: z.string(),
});

const serverStateSchema = z.object({ dnsNames: z.array(z.string()), ipAddresses: z.array(z.string()) });

/**
 * The files of the hub's own CA and certificate, in <data dir>/tls (0700): the CA's key and the
 * server key are 0600 and never served; ca.crt is public (GET /ca.crt).
 */
function tlsFiles(dataDir: string) {
  const dir = path.join(dataDir, 'tls');
  return {
    dir,
    caCert: path.join(dir, 'ca.crt'),
    caKey: path.join(dir, 'ca.key'),
    serverCert: path.join(dir, 'server.crt'),
    serverKey: path.join(dir, 'server.key'),
    /** The names the server certificate was issued for, compared cheaply with the machine's. */
    serverNames: path.join(dir, 'server.json'),
  };
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a key. */
function writePrivate(file: string, text: string, mode: number) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode });
  fs.chmodSync(temp, mode);
  fs.renameSync(temp, file);
}

export interface TlsServiceDeps {
  dataDir: string;
  db: Parameters<typeof createSettingsRepository>[0];
  secrets: SecretBox;
  log: Logger;
  /** The machine's host name, read at every check (it may be renamed while the hub runs). */
  hostname: () => string;
  /** The machine's names and addresses; by default from os.networkInterfaces. */
  names?: (hostname: string) => HubNames;
  now?: () => number;
}

export function createTlsService(deps: TlsServiceDeps) {
  const files = tlsFiles(deps.dataDir);
  const settings = createSettingsRepository(deps.db, deps.now);
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ feature: 'tls' });
  const readNames = () => (deps.names ?? hubNames)(deps.hostname());

  let ca: PemPair | null = null;
  let server: (PemPair & { names: HubNames; notAfter: number }) | null = null;
  let httpsPort: number | null = null;
  const listeners: Array<(credentials: TlsCredentials) => void> = [];

  function owner(): { certificate: string; privateKey: string } | null {
    const stored = settings.get(OWNER_SETTING, ownerSettingSchema);
    if (!stored) return null;
    try {
      return { certificate: stored.certificate, privateKey: deps.secrets.open(stored.privateKeySealed) };
    } catch {
      log.error(
        'the owner-supplied HTTPS certificate’s key cannot be opened; serving the hub’s own certificate',
      );
      return null;
    }
  }

  function credentials(): TlsCredentials {
    const own = owner();
    if (own) return { key: own.privateKey, cert: own.certificate };
    if (!server) throw new Error('TLS service not started');
    return { key: server.privateKey, cert: server.certificate };
  }

  function announce() {
    const current = credentials();
    for (const listener of listeners) listener(current);
  }

  async function loadOrCreateCa(): Promise<PemPair> {
    fs.mkdirSync(files.dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(files.dir, 0o700);
    const certificate = readIfExists(files.caCert);
    const privateKey = readIfExists(files.caKey);
    if (certificate && privateKey) {
      // A key copied in by hand (or restored) with looser rights is tightened, not trusted as is.
      fs.chmodSync(files.caKey, 0o600);
      return { certificate, privateKey };
    }
    const made = await createCa(
      `Nexus hub CA ${deps.hostname()} ${new Date(now()).toISOString().slice(0, 10)}`,
      now(),
    );
    writePrivate(files.caKey, made.privateKey, 0o600);
    writePrivate(files.caCert, made.certificate, 0o644);
    // A server certificate signed by an earlier CA would no longer chain to the one served.
    fs.rmSync(files.serverNames, { force: true });
    log.info('created the hub’s certificate authority');
    return made;
  }

  function loadServer(): typeof server {
    const certificate = readIfExists(files.serverCert);
    const privateKey = readIfExists(files.serverKey);
    const stateText = readIfExists(files.serverNames);
    if (!certificate || !privateKey || !stateText) return null;
    try {
      const names = serverStateSchema.parse(JSON.parse(stateText));
      return {
        certificate,
        privateKey,
        names,
        notAfter: certificateNotAfter(certificate),
      };
    } catch {
      return null;
    }
  }

  /** Issues the server certificate again when the names changed or it nears its end; true when it did. */
  async function refresh(): Promise<boolean> {
    if (!ca) return false;
    const names = readNames();
    if (server && sameNames(server.names, names) && server.notAfter - now() > RENEW_BEFORE_MS) return false;
    const issued = await issueServerCertificate(ca, names, now());
    writePrivate(files.serverKey, issued.privateKey, 0o600);
    writePrivate(files.serverCert, issued.certificate, 0o644);
    writePrivate(files.serverNames, JSON.stringify(names), 0o644);
    const notAfter = certificateNotAfter(issued.certificate);
    log.info(
      {
        dnsNames: names.dnsNames,
        ipAddresses: names.ipAddresses,
        notAfter: new Date(notAfter).toISOString(),
      },
      server
        ? 'issued the hub’s HTTPS certificate again (names, addresses or expiry changed)'
        : 'issued the hub’s HTTPS certificate',
    );
    server = { ...issued, names, notAfter };
    announce();
    return true;
  }

  function caPem(): string {
    if (!ca) throw new Error('TLS service not started');
    return ca.certificate;
  }

  function source() {
    return settings.get(OWNER_SETTING, ownerSettingSchema) ? ('owner' as const) : ('hub' as const);
  }

  function status(): TlsStatus {
    const chain = splitPem(credentials().cert).map(describeCertificate);
    return {
      source: source(),
      httpsPort,
      certificate: chain[0]!,
      chain: chain.slice(1),
      ca: describeCertificate(caPem()),
    };
  }

  return {
    /** Loads (or makes, at first start) the CA and the server certificate; before the HTTPS server starts. */
    async start(): Promise<void> {
      ca = await loadOrCreateCa();
      server = loadServer();
      await refresh();
    },
    credentials,
    refresh,
    /** Checks the names and expiry every NAMES_CHECK_MS; returns the stop for deps.onShutdown. */
    startPeriodicCheck(run: (task: () => Promise<unknown>) => void, everyMs = NAMES_CHECK_MS): () => void {
      const timer = setInterval(() => run(refresh), everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    /** Told the credentials whenever they change (a new hub certificate, the owner's, or back). */
    onChange(listener: (credentials: TlsCredentials) => void) {
      listeners.push(listener);
    },
    setHttpsPort(port: number | null) {
      httpsPort = port;
    },
    httpsPort: () => httpsPort,
    caPem,
    status,
    ca(): TlsCa {
      const info = describeCertificate(caPem());
      return {
        subject: info.subject,
        notAfter: info.notAfter,
        fingerprintSha256: info.fingerprintSha256,
        httpsPort,
        source: source(),
      };
    },
    /** Replaces the hub's certificate with the owner's (checked first: a bad one changes nothing). */
    setOwner(input: TlsCertificateInput, audit?: AuditRecorder): TlsStatus {
      const checked = checkOwnerCertificate(input, now());
      settings.set(OWNER_SETTING, {
        certificate: checked.certificate,
        privateKeySealed: deps.secrets.seal(checked.privateKey),
        installedAt: new Date(now()).toISOString(),
      });
      announce();
      const current = status();
      audit?.record({
        type: 'tls_certificate_replaced',
        target: current.certificate.subject,
        details: { issuer: current.certificate.issuer, notAfter: current.certificate.notAfter },
      });
      log.info(
        { subject: current.certificate.subject, issuer: current.certificate.issuer },
        'HTTPS now presents the owner’s certificate',
      );
      return current;
    },
    /** Back to the hub's own certificate. */
    clearOwner(audit?: AuditRecorder): TlsStatus {
      const had = source() === 'owner';
      settings.delete(OWNER_SETTING);
      if (had) {
        announce();
        audit?.record({ type: 'tls_certificate_reset' });
        log.info('HTTPS presents the hub’s own certificate again');
      }
      return status();
    },
  };
}

export type TlsService = ReturnType<typeof createTlsService>;
