import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROLES, roleSchema, type Role } from './contract/auth.js';
import { openDatabase, type DbHandle } from './db/client.js';
import { loadEnv } from './env.js';
import { createAuthService, type AuthService } from './features/auth/auth.service.js';
import { createSessionService } from './features/auth/session.service.js';
import { HttpError } from './lib/http-error.js';
import { createLogger } from './lib/logger.js';
import { openSecretBox, resetSecrets } from './db/secret-key.js';
import type { SecretBox } from './lib/secret-box.js';
import { SCRYPT_TEST_MIN_N, openBackup } from './features/backups/backup-format.js';
import { unpackAndCheck } from './features/backups/backup-archive.js';

/**
 * The owner's way back in when the console cannot help: `npm run cli -- <command> [options]`.
 * It works on the same database as the agent (NEXUS_DATA_DIR), with or without it running.
 * Whoever can run this on the hub already controls the hub, so it asks for no password.
 */

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  users:list                                   List every account with its role and 2FA state
  users:reset-password --email <email> [--password <new password>]
                                               Set a new password and sign the account out everywhere.
                                               Without --password a strong one is generated and printed once.
  users:set-role --email <email> --role <${ROLES.join('|')}>
                                               Change an account's role
  users:disable-2fa --email <email>            Turn off two-factor authentication (a lost phone)
  secrets:reset --yes                          secret.key lost for good: forget every stored secret (Home
                                               Assistant token, provider and speech API keys, other hubs,
                                               flow header secrets, webhook URLs, 2FA) and make a new key,
                                               so that the agent starts and they can be entered again
  backup:decrypt <file> <out-dir>              Check and unpack a .nexusbackup into <out-dir> (which must
                                               not exist): nexus.db, secret.key and the other files of the
                                               data directory, to copy into NEXUS_DATA_DIR while the agent
                                               is stopped. Passphrase from NEXUS_BACKUP_PASSPHRASE or stdin
  help                                         Show this help

The database is the one in NEXUS_DATA_DIR (default ./data), as for the agent.`;

/** Exit codes: 0 done, 1 the command failed (e.g. no such account), 2 the command line was wrong. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** 18 random bytes: a 24-character base64url password, 144 bits, beyond any guessing. */
function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function parseRole(value: string): Role {
  const result = roleSchema.safeParse(value);
  if (!result.success) throw new UsageError(`--role must be one of: ${ROLES.join(', ')}`);
  return result.data;
}

async function run(
  command: string | undefined,
  args: string[],
  open: () => AuthService,
  resetStoredSecrets: () => string[],
): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      yes: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });

  switch (command) {
    case 'users:list': {
      const users = open().listUsers();
      if (users.length === 0) {
        out('No accounts yet: the first one registered in the console becomes superadmin.');
        return;
      }
      for (const user of users) {
        out(
          [
            String(user.id).padStart(4),
            user.role.padEnd(10),
            (user.totpEnabled ? '2FA' : '-').padEnd(4),
            user.email,
            `(${user.name})`,
          ].join('  '),
        );
      }
      return;
    }
    case 'users:reset-password': {
      const email = requireOption(values, 'email');
      const given = values.password;
      const password = given ?? generatePassword();
      const user = await open().resetPassword(email, password);
      out(`The password of ${user.email} is reset; every session of the account is signed out.`);
      if (given === undefined) out(`New password (shown once): ${password}`);
      return;
    }
    case 'users:set-role': {
      const email = requireOption(values, 'email');
      const role = parseRole(requireOption(values, 'role'));
      const user = open().setRoleByEmail(email, role);
      out(`${user.email} is now ${user.role}.`);
      return;
    }
    case 'users:disable-2fa': {
      const email = requireOption(values, 'email');
      const user = open().disableTwoFactorByEmail(email);
      out(`Two-factor authentication is off for ${user.email}; set it up again in Account Settings.`);
      return;
    }
    case 'secrets:reset': {
      if (!values.yes) {
        throw new UsageError(
          'secrets:reset forgets every stored secret for good; restore secret.key from a backup if you can, or run it with --yes',
        );
      }
      const done = resetStoredSecrets();
      out('A new secret.key is made and the stored secrets are forgotten:');
      for (const line of done) out(`  ${line}`);
      out('Start the agent and enter the tokens and API keys again in the console.');
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
  }
}

async function readPassphrase(): Promise<string> {
  const given = loadEnv().NEXUS_BACKUP_PASSPHRASE;
  if (given) return given;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!text) throw new UsageError('Give the passphrase in NEXUS_BACKUP_PASSPHRASE or on standard input');
  return text;
}

/** Checks a backup like a restore does (passphrase, every chunk, manifest, integrity) and unpacks it. */
async function decryptBackup(args: string[]): Promise<void> {
  const [file, outDir, ...extra] = args;
  if (!file || !outDir || extra.length) throw new UsageError('backup:decrypt needs <file> <out-dir>');
  const passphrase = await readPassphrase();
  const { header, payload } = await openBackup(file, passphrase, {
    minN: loadEnv().NODE_ENV === 'test' ? SCRYPT_TEST_MIN_N : undefined,
  });
  // The schema check is left to the agent that opens it: by hand, any level may be wanted.
  await unpackAndCheck(payload, path.resolve(outDir), header, {
    schemaLevel: Number.MAX_SAFE_INTEGER,
    appVersion: '',
  });
  out(
    `Unpacked the backup of ${header.hubName} made ${header.createdAt} (version ${header.appVersion}) into ${outDir}.`,
  );
  out('To restore by hand: stop the agent, move the files of NEXUS_DATA_DIR aside, copy these in, start it.');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    out(USAGE);
    return 0;
  }
  if (command === 'backup:decrypt') {
    try {
      await decryptBackup(rest);
      return 0;
    } catch (error) {
      err(`Error: ${error instanceof Error ? error.message : String(error)}`);
      return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
    }
  }
  let handle: DbHandle | undefined;
  const open = (): AuthService => {
    const env = loadEnv();
    handle = openDatabase(env.dataDir);
    // No command here decrypts anything: read (or create) the key only if one ever does.
    let box: SecretBox | undefined;
    const opened = handle;
    const secrets: SecretBox = {
      seal: (plaintext) => (box ??= openSecretBox(env.dataDir, opened)).seal(plaintext),
      open: (sealed) => (box ??= openSecretBox(env.dataDir, opened)).open(sealed),
    };
    return createAuthService({
      db: handle.db,
      sessions: createSessionService(handle.db),
      secrets,
      log: createLogger('silent'),
    });
  };
  const resetStoredSecrets = (): string[] => {
    const env = loadEnv();
    handle = openDatabase(env.dataDir);
    return resetSecrets(env.dataDir, handle);
  };
  try {
    await run(command, rest, open, resetStoredSecrets);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`Error: ${(error as Error).message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    if (error instanceof HttpError) {
      err(`Error: ${error.message}`);
      return EXIT_FAILED;
    }
    err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  } finally {
    handle?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
