import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  networkPageSchema,
  tlsCaSchema,
  tlsStatusSchema,
  type NetworkInterface,
  type TlsCertificateInput,
} from '@nexus/agent/contract';
import { authUserQueryKey } from '@/features/auth';
import { queryClient } from '@/lib/query-client';
import { ApiRequestError, apiJson } from '@/lib/request';

/** /api/system/network's figures with the Wi-Fi links and Tailscale's state (issue 17). */
export const NETWORK_INFO_PATH = '/api/network/info';

/** Rates and addresses change slowly; a refresh every 10 s keeps the rx/tx figures meaningful. */
export const NETWORK_INFO_REFRESH_MS = 10_000;

/** GETs and parses; a 401 re-checks the user, so an ended session signs the console out and stops the polling. */
async function getParsed<T>(path: string, schema: { parse: (value: unknown) => T }): Promise<T> {
  try {
    return schema.parse(await apiJson<unknown>('GET', path));
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) {
      void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    }
    throw error;
  }
}

export const networkInfoQueryOptions = () =>
  queryOptions({
    queryKey: [NETWORK_INFO_PATH],
    queryFn: () => getParsed(NETWORK_INFO_PATH, networkPageSchema),
    refetchInterval: NETWORK_INFO_REFRESH_MS,
  });

/**
 * The order people look for interfaces in: the one with the default route, then the other
 * physical ones that are up, then virtual ones, then loopback; by name within each group.
 */
export function sortInterfaces(interfaces: readonly NetworkInterface[]): NetworkInterface[] {
  const rank = (i: NetworkInterface) =>
    i.isDefault ? 0 : i.internal ? 4 : i.virtual ? 3 : i.operstate === 'up' ? 1 : 2;
  return [...interfaces].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** Signal strength in words, by the usual dBm bands. */
export function signalWords(dbm: number | null): string {
  if (dbm === null) return 'Unknown';
  if (dbm >= -55) return 'Excellent';
  if (dbm >= -67) return 'Good';
  if (dbm >= -75) return 'Fair';
  return 'Weak';
}

/** HTTPS (issue 21): the hub CA's fingerprint and HTTPS port, for everyone signed in. */
export const TLS_CA_PATH = '/api/tls/ca';
/** The certificate in use and replacing it: admins only. */
export const TLS_STATUS_PATH = '/api/tls';
export const TLS_CERTIFICATE_PATH = '/api/tls/certificate';
/** The CA certificate devices install; public, so a device can fetch it before it trusts the hub. */
export const CA_CERTIFICATE_URL = '/ca.crt';

export const tlsCaQueryOptions = () =>
  queryOptions({ queryKey: [TLS_CA_PATH], queryFn: () => getParsed(TLS_CA_PATH, tlsCaSchema) });

export const tlsStatusQueryOptions = () =>
  queryOptions({ queryKey: [TLS_STATUS_PATH], queryFn: () => getParsed(TLS_STATUS_PATH, tlsStatusSchema) });

/** Both reads change together when the certificate is replaced or reset. */
function useTlsMutation<I>(run: (input: I) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => tlsStatusSchema.parse(await run(input)),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [TLS_STATUS_PATH] }),
        client.invalidateQueries({ queryKey: [TLS_CA_PATH] }),
      ]);
    },
  });
}

/** Installs the owner's certificate (PEM, leaf first) and key; the agent checks both first. */
export function useReplaceCertificate() {
  return useTlsMutation((input: TlsCertificateInput) => apiJson('PUT', TLS_CERTIFICATE_PATH, input));
}

/** Back to the hub's own certificate. */
export function useResetCertificate() {
  return useTlsMutation(() => apiJson('DELETE', TLS_CERTIFICATE_PATH));
}

/**
 * Where this console is on HTTPS: the same name on the agent's HTTPS port (the default port left
 * out), the path kept. Null when the agent has no HTTPS port.
 */
export function httpsAddress(location: Pick<Location, 'hostname' | 'pathname'>, httpsPort: number | null) {
  if (httpsPort === null) return null;
  const host =
    location.hostname.includes(':') && !location.hostname.startsWith('[')
      ? `[${location.hostname}]`
      : location.hostname;
  return `https://${host}${httpsPort === 443 ? '' : `:${httpsPort}`}${location.pathname}`;
}
