const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** "512 B", "1.5 KiB", "23.4 GiB": binary units, as the kernel counts memory and most tools show disks. */
export function formatBytes(bytes: number | null | undefined, fractionDigits = 1): string {
  if (bytes == null || !Number.isFinite(bytes)) return '—';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value >= 100 ? 0 : fractionDigits;
  return `${sign}${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** A transfer rate: "1.2 MiB/s". */
export function formatRate(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond == null || !Number.isFinite(bytesPerSecond)) return '—';
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** A rate short enough for a chart's axis: "1.8K", "12M" (bytes per second, binary prefixes). */
export function formatRateCompact(bytesPerSecond: number): string {
  const prefixes = ['', 'K', 'M', 'G', 'T'];
  let value = Math.abs(bytesPerSecond);
  let prefix = 0;
  while (value >= 1024 && prefix < prefixes.length - 1) {
    value /= 1024;
    prefix += 1;
  }
  const digits = value >= 10 || prefix === 0 ? 0 : 1;
  return `${bytesPerSecond < 0 ? '-' : ''}${value.toFixed(digits)}${prefixes[prefix]}`;
}
