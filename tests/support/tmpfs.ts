import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Tmpfs {
  /** The mount point, or undefined when the file system could not be mounted (see reason). */
  dir?: string;
  reason: string;
  /** Remounts it read-only (or writable again). */
  remount(options: 'ro' | 'rw'): void;
  unmount(): void;
}

/**
 * A small tmpfs of its own for a test (a disk that fills up, a read-only data directory). Mounting
 * needs root, which the test machine's runs have; elsewhere the caller skips with the reason.
 * Synchronous, so that describe.skipIf can use the result while tests are collected.
 */
export function mountTmpfs(size: string, options = ''): Tmpfs {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-tmpfs-'));
  const fail = (reason: string): Tmpfs => {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason, remount: () => {}, unmount: () => {} };
  };
  if (process.getuid?.() !== 0) return fail('mounting a tmpfs needs root');
  try {
    execFileSync(
      'mount',
      ['-t', 'tmpfs', '-o', `size=${size},mode=0755${options ? `,${options}` : ''}`, 'tmpfs', dir],
      {
        stdio: 'pipe',
      },
    );
  } catch (error) {
    return fail(
      `mount -t tmpfs failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim() || error}`,
    );
  }
  let mounted = true;
  return {
    dir,
    reason: '',
    remount(mode) {
      execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' });
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      execFileSync('umount', [dir], { stdio: 'pipe' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
