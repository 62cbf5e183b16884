import fs from 'node:fs';
import path from 'node:path';

/**
 * The host's files as the agent sees them under NEXUS_HOST_ROOT: `/` on a bare install, `/host`
 * when the agent runs in a container with the host's root mounted read-only there.
 *
 * Paths are resolved as if the root were `/`: an absolute symlink such as
 * `/etc/nvpmodel.conf -> /etc/nvpmodel/nvpmodel_p3767_0000.conf` or
 * `/usr/local/cuda -> /etc/alternatives/cuda` points into the host's tree, not the container's,
 * and `..` never climbs above the root. Every read answers null or [] instead of throwing: a
 * missing file is a fact about the host, not an error of the agent.
 */
export interface HostFiles {
  readonly root: string;
  /** The real path of `rel` inside the root, symlinks followed; null when a link loops. */
  resolve(rel: string): string | null;
  readText(rel: string, maxBytes?: number): string | null;
  /** Entry names of a directory, sorted; [] when it does not exist. */
  list(rel: string): string[];
  exists(rel: string): boolean;
  isExecutableFile(rel: string): boolean;
  /** Size and free space of the filesystem holding `rel`. */
  statfs(rel: string): { totalBytes: number; availableBytes: number } | null;
}

/** Linux gives up after 40 links in one path; so do we. */
const MAX_SYMLINK_HOPS = 40;
/** Enough for /var/lib/dpkg/status on a full JetPack install (a few MB); sysfs files are tiny. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export function createHostFiles(root: string): HostFiles {
  const base = path.resolve(root);

  function resolve(rel: string): string | null {
    const done: string[] = [];
    let todo = rel.split('/').filter((p) => p !== '' && p !== '.');
    let hops = 0;
    while (todo.length > 0) {
      const part = todo.shift()!;
      if (part === '..') {
        done.pop();
        continue;
      }
      const candidate = path.join(base, ...done, part);
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(candidate);
      } catch {
        // Missing: the caller's read fails on the path as named, which is what it should report.
        return path.join(base, ...done, part, ...todo);
      }
      if (!stat.isSymbolicLink()) {
        done.push(part);
        continue;
      }
      if (++hops > MAX_SYMLINK_HOPS) return null;
      let target: string;
      try {
        target = fs.readlinkSync(candidate);
      } catch {
        return null;
      }
      if (target.startsWith('/')) done.length = 0;
      todo = [...target.split('/').filter((p) => p !== '' && p !== '.'), ...todo];
    }
    return path.join(base, ...done);
  }

  return {
    root: base,
    resolve,

    readText(rel, maxBytes = DEFAULT_MAX_BYTES) {
      const file = resolve(rel);
      if (!file) return null;
      try {
        const stat = fs.statSync(file);
        // sysfs and procfs report size 0 (or 4096) whatever they hold, so only regular sizes are checked.
        if (stat.isFile() && stat.size > maxBytes) return null;
        return fs.readFileSync(file, 'utf8');
      } catch {
        return null;
      }
    },

    list(rel) {
      const dir = resolve(rel);
      if (!dir) return [];
      try {
        return fs.readdirSync(dir).sort();
      } catch {
        return [];
      }
    },

    exists(rel) {
      const file = resolve(rel);
      return file !== null && fs.existsSync(file);
    },

    isExecutableFile(rel) {
      const file = resolve(rel);
      if (!file) return false;
      try {
        const stat = fs.statSync(file);
        return stat.isFile() && (stat.mode & 0o111) !== 0;
      } catch {
        return false;
      }
    },

    statfs(rel) {
      const target = resolve(rel);
      if (!target) return null;
      try {
        const s = fs.statfsSync(target);
        return { totalBytes: s.blocks * s.bsize, availableBytes: s.bavail * s.bsize };
      } catch {
        return null;
      }
    },
  };
}

/** Size and free space of the filesystem holding an absolute path of the agent's own (its data directory). */
export function statfsAt(absolutePath: string): { totalBytes: number; availableBytes: number } | null {
  try {
    const s = fs.statfsSync(absolutePath);
    return { totalBytes: s.blocks * s.bsize, availableBytes: s.bavail * s.bsize };
  } catch {
    return null;
  }
}
