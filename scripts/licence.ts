/**
 * The vendor's licence tool (issue 22). Run it with `npx tsx scripts/licence.ts <command>`:
 *
 *   keygen [--out <dir>]
 *       Makes an Ed25519 signing key pair: <dir>/private.pem (keep it offline, never commit it) and
 *       <dir>/public.pem (ship it: agent/src/features/subscription/vendor-key.ts, or set
 *       NEXUS_LICENCE_PUBLIC_KEY on the hubs). Existing files are never overwritten.
 *
 *   sign --key <private.pem> --hub <hubId> --plan pro|max [--days 365] [--nbf <date>] [--seats N] [--lid <id>]
 *       Prints the licence key on stdout (alone, so `> key.txt` saves just the key) and its receipt
 *       on stderr. The licence runs --days from --nbf (an ISO date or time; default now).
 *
 * Hubs verify keys offline: this tool is the only place keys are made.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { licenceReceipt, signLicenceKey } from '../agent/src/features/subscription/licence-key.js';
import type { LicencePayload } from '../agent/src/contract/subscription.js';

const DAY_S = 24 * 60 * 60;
/** hub-id.ts makes 26 characters of lowercase base32; a typo here would make a key no hub accepts. */
const HUB_ID = /^[a-z0-9]{26}$/;

class UsageError extends Error {}

function keygen(args: string[]): void {
  const { values } = parseArgs({ args, options: { out: { type: 'string', default: '.' } }, strict: true });
  const dir = path.resolve(values.out);
  const privatePath = path.join(dir, 'private.pem');
  const publicPath = path.join(dir, 'public.pem');
  for (const file of [privatePath, publicPath])
    if (fs.existsSync(file)) throw new UsageError(`${file} exists: keygen never overwrites a key.`);
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }), {
    mode: 0o600,
    flag: 'wx',
  });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  fs.writeFileSync(publicPath, publicPem, { flag: 'wx' });
  process.stdout.write(
    [
      `Private key: ${privatePath} (keep it offline; whoever has it can make licences)`,
      `Public key:  ${publicPath}`,
      '',
      publicPem.trimEnd(),
      '',
      'Ship the public key in agent/src/features/subscription/vendor-key.ts, or set it on the hubs as',
      'NEXUS_LICENCE_PUBLIC_KEY.',
      '',
    ].join('\n'),
  );
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} must be a whole number of at least 1.`);
  return Number(value);
}

function sign(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      hub: { type: 'string' },
      plan: { type: 'string' },
      days: { type: 'string', default: '365' },
      nbf: { type: 'string' },
      seats: { type: 'string' },
      lid: { type: 'string' },
    },
    strict: true,
  });
  if (!values.key) throw new UsageError('--key <private.pem> is required.');
  if (!values.hub || !HUB_ID.test(values.hub))
    throw new UsageError(
      '--hub must be the hub id shown on its Billing screen (26 lowercase letters and digits).',
    );
  if (values.plan !== 'pro' && values.plan !== 'max') throw new UsageError('--plan must be pro or max.');
  const days = positiveInt('days', values.days)!;
  const seats = positiveInt('seats', values.seats);
  const iat = Math.floor(Date.now() / 1000);
  let nbf: number | undefined;
  if (values.nbf !== undefined) {
    const at = Date.parse(values.nbf);
    if (Number.isNaN(at))
      throw new UsageError('--nbf must be a date such as 2026-07-01 or 2026-07-01T00:00:00Z.');
    nbf = Math.floor(at / 1000);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(fs.readFileSync(values.key));
  } catch (err) {
    throw new UsageError(`Cannot read the private key ${values.key}: ${(err as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new UsageError(`${values.key} is not an Ed25519 private key.`);

  const payload: LicencePayload = {
    lid: values.lid ?? `lic_${randomBytes(8).toString('hex')}`,
    hub: values.hub,
    plan: values.plan,
    iat,
    exp: (nbf ?? iat) + days * DAY_S,
    ...(nbf !== undefined ? { nbf } : {}),
    ...(seats !== undefined ? { seats } : {}),
  };
  const key = signLicenceKey(payload, privateKey);
  process.stdout.write(`${key}\n`);
  process.stderr.write(`\n${licenceReceipt(payload, key)}`);
  if (payload.exp <= iat)
    process.stderr.write('\nWarning: this licence has already expired; no hub will accept it.\n');
}

const USAGE = `Usage:
  npx tsx scripts/licence.ts keygen [--out <dir>]
  npx tsx scripts/licence.ts sign --key <private.pem> --hub <hubId> --plan pro|max [--days 365] [--nbf <date>] [--seats N] [--lid <id>]
`;

try {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'keygen') keygen(rest);
  else if (command === 'sign') sign(rest);
  else throw new UsageError(command ? `Unknown command "${command}".` : 'Name a command.');
} catch (err) {
  const known = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`${known ? (err as Error).message : String((err as Error).stack)}\n\n${USAGE}`);
  process.exitCode = 2;
}
