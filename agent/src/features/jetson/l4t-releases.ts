/**
 * Jetson Linux (L4T) releases and the JetPack each shipped in. Source: NVIDIA's JetPack archive
 * (https://developer.nvidia.com/embedded/jetpack-archive) and the Jetson Linux release pages,
 * cross-checked against the table jetson_stats keeps (rbonghi/jetson_stats,
 * jtop/core/jetson_variables.py). Releases are written major.minor.patch, as /etc/nv_tegra_release
 * gives them ("# R36 (release), REVISION: 4.0" is 36.4.0).
 */
const JETPACK_BY_L4T: Readonly<Record<string, string>> = {
  // JetPack 6 (Orin)
  '36.4.4': '6.2.1',
  '36.4.3': '6.2',
  '36.4.2': '6.1 (rev1)',
  '36.4.0': '6.1',
  '36.3.0': '6.0',
  '36.2.0': '6.0 DP',
  '36.0.0': '6.0 EA',
  // JetPack 5 (Xavier, Orin)
  '35.6.1': '5.1.5',
  '35.6.0': '5.1.4',
  '35.5.0': '5.1.3',
  '35.4.1': '5.1.2',
  '35.3.1': '5.1.1',
  '35.2.1': '5.1',
  '35.1.0': '5.0.2',
  '34.1.1': '5.0.1 DP',
  '34.1.0': '5.0 DP',
  // JetPack 4 (Nano, TX1, TX2, Xavier)
  '32.7.6': '4.6.6',
  '32.7.5': '4.6.5',
  '32.7.4': '4.6.4',
  '32.7.3': '4.6.3',
  '32.7.2': '4.6.2',
  '32.7.1': '4.6.1',
  '32.6.1': '4.6',
  '32.5.2': '4.5.1',
  '32.5.1': '4.5.1',
  '32.5.0': '4.5',
  '32.4.4': '4.4.1',
  '32.4.3': '4.4',
  '32.4.2': '4.4 DP',
  '32.3.1': '4.3',
  '32.2.3': '4.2.3',
  '32.2.1': '4.2.2',
  '32.2.0': '4.2.1',
  '32.1.0': '4.2',
};

/**
 * When a release is newer than the table (or a vendor's own build), its major release still
 * names the JetPack line: every R36 is JetPack 6, every R35 a JetPack 5.1 or 5.0.2, and so on.
 */
const JETPACK_BY_L4T_MAJOR: Readonly<Record<number, string>> = {
  38: '7.x',
  36: '6.x',
  35: '5.x',
  34: '5.0 DP',
  32: '4.x',
  31: '4.1.x',
  28: '3.x',
};

/** "36.4" → "36.4.0"; anything that is not a dotted number → null. */
export function normalizeL4tRelease(release: string): string | null {
  const parts = release.trim().replace(/^R/i, '').split('.');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return null;
  while (parts.length < 3) parts.push('0');
  return parts.map((p) => String(Number(p))).join('.');
}

export function jetpackForL4t(release: string): { version: string; match: 'exact' | 'major' } | null {
  const normalized = normalizeL4tRelease(release);
  if (!normalized) return null;
  const exact = JETPACK_BY_L4T[normalized];
  if (exact) return { version: exact, match: 'exact' };
  const major = JETPACK_BY_L4T_MAJOR[Number(normalized.split('.')[0])];
  return major ? { version: major, match: 'major' } : null;
}

/** The JetPack major (4, 5, 6…) of a version such as "6.1", "5.0 DP" or "6.x". */
export function jetpackMajor(version: string): number | null {
  const match = /^(\d+)/.exec(version);
  return match ? Number(match[1]) : null;
}

/** The CUDA major each JetPack line ships (JetPack 4: CUDA 10.2, 5: 11.4, 6: 12.x, 7: 13.x). */
export const CUDA_MAJOR_BY_JETPACK_MAJOR: Readonly<Record<number, number>> = { 4: 10, 5: 11, 6: 12, 7: 13 };

/** Tegra SoCs by their device-tree name. */
export const TEGRA_FAMILIES: Readonly<Record<string, string>> = {
  tegra264: 'Thor',
  tegra234: 'Orin',
  tegra194: 'Xavier',
  tegra186: 'TX2 (Parker)',
  tegra210: 'Nano / TX1',
  tegra124: 'TK1',
};

/**
 * Parses the first line of /etc/nv_tegra_release, e.g.
 * "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64, DATE: …".
 */
export function parseNvTegraRelease(text: string): { release: string; raw: string } | null {
  const raw = text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  if (!raw) return null;
  const match = /R(\d+)\s*\(release\),\s*REVISION:\s*(\d+)(?:\.(\d+))?/i.exec(raw);
  if (!match) return null;
  const release = normalizeL4tRelease(`${match[1]}.${match[2]}.${match[3] ?? '0'}`);
  return release ? { release, raw } : null;
}
