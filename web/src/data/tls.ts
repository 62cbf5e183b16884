import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { tlsCaSchema, tlsStatusSchema, type TlsCertificateInput } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';
import { getParsed } from './auth-session';

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
