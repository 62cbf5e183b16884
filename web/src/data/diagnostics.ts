import { queryOptions } from '@tanstack/react-query';
import {
  metricSeriesSchema,
  processListSchema,
  systemInfoSchema,
  type MetricWindow,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { apiRequest } from '@/lib/request';

export const SYSTEM_INFO_PATH = '/api/system/info';
export const METRICS_PATH = '/api/system/metrics';
export const PROCESSES_PATH = '/api/system/processes';
export const DIAGNOSTICS_BUNDLE_PATH = '/api/diagnostics/bundle';

/** The agent refreshes disk figures every 30 s; asking more often would only repeat them. */
export const SYSTEM_INFO_REFRESH_MS = 30_000;
/** The agent reads the process table every 10 s while someone looks; asking more often would repeat it. */
export const PROCESSES_REFRESH_MS = 10_000;
/** The day window is made of minute means, so one new point a minute is all there is to fetch. */
export const DAY_WINDOW_REFRESH_MS = 60_000;

export type ProcessSort = 'cpu' | 'mem';
export const PROCESS_LIMIT = 15;

export const systemInfoQueryOptions = () =>
  queryOptions({
    queryKey: [SYSTEM_INFO_PATH],
    queryFn: () => getParsed(SYSTEM_INFO_PATH, systemInfoSchema),
    refetchInterval: SYSTEM_INFO_REFRESH_MS,
  });

/**
 * The stored history of one window. The hour window is then kept current by the live `metrics`
 * topic (one sample a second); the day window refetches each minute.
 */
export const metricSeriesQueryOptions = (window: MetricWindow) =>
  queryOptions({
    queryKey: [METRICS_PATH, window],
    queryFn: () => getParsed(`${METRICS_PATH}?window=${window}`, metricSeriesSchema),
    refetchInterval: window === '24h' ? DAY_WINDOW_REFRESH_MS : false,
  });

export const processesQueryOptions = (sort: ProcessSort) =>
  queryOptions({
    queryKey: [PROCESSES_PATH, sort],
    queryFn: () => getParsed(`${PROCESSES_PATH}?sort=${sort}&limit=${PROCESS_LIMIT}`, processListSchema),
    refetchInterval: PROCESSES_REFRESH_MS,
    // The table keeps showing the previous order while the newly sorted one loads.
    placeholderData: (previous) => previous,
  });

/** The file name the agent suggests in Content-Disposition, else one made from the time. */
export function bundleFileName(contentDisposition: string | null, now: Date): string {
  const match = contentDisposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (match?.[1]) return decodeURIComponent(match[1]);
  return `nexus-diagnostics-${now.toISOString().replace(/[:.]/g, '-')}.json`;
}

/** Fetches the diagnostics bundle (admins only) and hands it to the browser as a download. */
export async function downloadDiagnosticsBundle(): Promise<string> {
  const res = await apiRequest('GET', DIAGNOSTICS_BUNDLE_PATH);
  const blob = await res.blob();
  const fileName = bundleFileName(res.headers.get('Content-Disposition'), new Date());
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download manager; the URL is not needed after this turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return fileName;
}
