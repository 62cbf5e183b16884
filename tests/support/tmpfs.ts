import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Remounts it read-only (or writable again). */
  remount(options: 'ro' | 'rw'): void;
  unmount(): void;
}

/**
 * Why a small tmpfs cannot be mounted here, or null when it can. Mounting needs root, which the test
 * machine's runs have; elsewhere the caller skips with the reason. Synchronous, for describe.skipIf
 * while tests are collected; it mounts and unmounts at once, so that a run which filters the tests
 * out (vitest -t) leaves nothing mounted.
 */
export function tmpfsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    mountTmpfs('64k').unmount();
    return null;
  } catch (error) {
    return `mount -t tmpfs failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim() || error}`;
  }
}

/** A tmpfs of its own for a test (a disk that fills up, a read-only data directory); unmount it in afterAll. */
export function mountTmpfs(size: string): Tmpfs {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let mounted = true;
  return {
    dir,
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
