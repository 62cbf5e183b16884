import fs from 'node:fs';

/** Where removable disks are mounted on Debian-like systems (udisks: /media/<user>/<label>) and by hand. */
const ROOTS = ['/media/', '/mnt/'];

/** /proc/mounts escapes spaces and the like as octal (\040). */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Mount points under /media and /mnt (USB disks) with their free space: folders the owner may pick. */
export function listDestinations(mounts = '/proc/self/mounts'): { path: string; freeBytes: number | null }[] {
  let text: string;
  try {
    text = fs.readFileSync(mounts, 'utf8');
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const out: { path: string; freeBytes: number | null }[] = [];
  for (const line of text.split('\n')) {
    const point = line.split(' ')[1];
    if (!point) continue;
    const dir = unescape(point);
    if (!ROOTS.some((root) => dir.startsWith(root)) || seen.has(dir)) continue;
    seen.add(dir);
    let freeBytes: number | null = null;
    try {
      const stats = fs.statfsSync(dir);
      freeBytes = Number(stats.bavail) * Number(stats.bsize);
    } catch {
      // not readable by the agent: listed without a figure
    }
    out.push({ path: dir, freeBytes });
  }
  return out;
}
