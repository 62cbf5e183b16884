import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, Download, ExternalLink, FileKey, Lock, LockOpen, ShieldCheck } from 'lucide-react';
import type { TlsCertificateInfo, TlsStatus } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { StatusPill } from '@/components/ui/status-pill';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import {
  CA_CERTIFICATE_URL,
  httpsAddress,
  tlsCaQueryOptions,
  tlsStatusQueryOptions,
  useReplaceCertificate,
  useResetCertificate,
} from '@/data/tls';

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });

/**
 * HTTPS on /network-info (issue 21): browsers let the microphone be used only on a secure origin,
 * so phones and laptops open the console over HTTPS with the hub's own certificate authority
 * installed. Shows whether this page is on HTTPS, the CA to download with its fingerprint and the
 * steps per system; admins also see the certificate in use and can replace it with their own.
 */
export function HttpsSection() {
  const { isAdmin } = useAuth();
  const ca = useQuery(tlsCaQueryOptions());
  const secure = window.location.protocol === 'https:';
  const target = ca.data ? httpsAddress(window.location, ca.data.httpsPort) : null;

  return (
    <Panel
      title="Secure connection (HTTPS)"
      icon={Lock}
      description="Browsers allow the microphone (wake-word recording, voice) only over HTTPS. Install the hub’s certificate authority once on each device, then open the console at its https:// address."
    >
      <div className="grid gap-6">
        <div role="status" className="flex flex-wrap items-center gap-2 text-sm">
          {secure ? (
            <>
              <StatusPill tone="good">On HTTPS</StatusPill>
              <span>This page is on a secure connection: the microphone can be used here.</span>
            </>
          ) : (
            <>
              <StatusPill tone="warning">Plain HTTP</StatusPill>
              <span>
                {window.isSecureContext
                  ? 'This page is on plain HTTP from the hub itself, which the browser treats as secure.'
                  : 'This page is on plain HTTP: the browser will not let it use the microphone.'}
              </span>
              {target ? (
                <a
                  className="inline-flex items-center gap-1 font-medium text-primary underline"
                  href={target}
                >
                  Open the console on HTTPS
                  <ExternalLink aria-hidden="true" className="size-3.5" />
                </a>
              ) : null}
            </>
          )}
        </div>

        {ca.data ? (
          <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
            <Fact label="HTTPS address">
              {target ? (
                <span className="font-mono break-all">{target}</span>
              ) : (
                'The hub is not listening for HTTPS'
              )}
            </Fact>
            <Fact label="Certificate authority">
              {ca.data.subject.replace(/^CN=/, '').replace(/,.*$/, '')} (until {formatDate(ca.data.notAfter)})
            </Fact>
            <Fact label="SHA-256 fingerprint (compare it on the device)" wide>
              <span className="font-mono text-xs break-all" data-testid="ca-fingerprint">
                {ca.data.fingerprintSha256}
              </span>
            </Fact>
          </dl>
        ) : ca.error ? (
          <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
            <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            Couldn&apos;t read the hub&apos;s certificate authority:{' '}
            {errorMessage(ca.error) ?? ca.error.message}
          </p>
        ) : (
          <Skeleton className="h-16 w-full" aria-label="Loading the certificate authority" />
        )}

        {ca.data?.source === 'owner' ? (
          <Alert>
            <ShieldCheck aria-hidden="true" />
            <AlertTitle>The hub presents the owner’s own certificate</AlertTitle>
            <AlertDescription>
              Devices that already trust its issuer need nothing installed. The hub’s own certificate
              authority below is only needed if an admin switches back to the hub’s certificate.
            </AlertDescription>
          </Alert>
        ) : null}

        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <a href={CA_CERTIFICATE_URL} download="nexus-hub-ca.crt">
              <Download aria-hidden="true" />
              Download the certificate authority
            </a>
          </Button>
        </div>

        <InstallSteps />

        {isAdmin ? <CertificateAdmin /> : null}
      </div>
    </Panel>
  );
}

function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'grid gap-0.5 sm:col-span-2' : 'grid gap-0.5'}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

/** Per system, the steps to trust the downloaded nexus-hub-ca.crt for websites. */
const INSTALL_STEPS: ReadonlyArray<{ system: string; steps: ReactNode[] }> = [
  {
    system: 'Android',
    steps: [
      'Tap “Download the certificate authority” above (the file is nexus-hub-ca.crt).',
      'Open Settings → Security & privacy → More security settings → Encryption & credentials → Install a certificate → CA certificate, tap “Install anyway” and choose nexus-hub-ca.crt.',
      'Chrome trusts it at once. Firefox for Android: Settings → About Firefox, tap the logo five times, then Settings → Secret settings → “Use third party CA certificates”.',
    ],
  },
  {
    system: 'iPhone and iPad',
    steps: [
      'Open this page in Safari and tap “Download the certificate authority”; allow the configuration profile to download.',
      'Open Settings → Profile Downloaded (or General → VPN & Device Management), tap the Nexus hub profile and Install; enter the passcode.',
      'Then Settings → General → About → Certificate Trust Settings and turn on full trust for the Nexus hub CA. Without this step Safari still warns.',
    ],
  },
  {
    system: 'macOS',
    steps: [
      'Download the file and double-click it: Keychain Access adds it (choose the System keychain).',
      'In Keychain Access double-click “Nexus hub CA”, open Trust and set “When using this certificate” to “Always Trust”; close the window and confirm with your password.',
      <>
        Or in Terminal:{' '}
        <code className="font-mono text-xs break-all">
          sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain
          nexus-hub-ca.crt
        </code>
      </>,
    ],
  },
  {
    system: 'Windows',
    steps: [
      'Download the file and double-click it, then Install Certificate.',
      'Choose Local Machine (or Current User), “Place all certificates in the following store”, Browse → Trusted Root Certification Authorities, Next, Finish, and confirm the warning.',
      <>
        Or in an administrator prompt:{' '}
        <code className="font-mono text-xs break-all">certutil -addstore -f Root nexus-hub-ca.crt</code>. Edge
        and Chrome use this store; restart the browser.
      </>,
    ],
  },
  {
    system: 'Linux, Chromium and Firefox',
    steps: [
      <>
        System-wide (Debian, Ubuntu):{' '}
        <code className="font-mono text-xs break-all">
          sudo cp nexus-hub-ca.crt /usr/local/share/ca-certificates/ && sudo update-ca-certificates
        </code>
      </>,
      'Chromium and Chrome on Linux: Settings → Privacy and security → Security → Manage certificates → Authorities (or “Installed by you”) → Import, and trust it for identifying websites.',
      'Firefox (every system): Settings → Privacy & Security → Certificates → View Certificates → Authorities → Import, tick “Trust this CA to identify websites”.',
    ],
  },
];

function InstallSteps() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="font-semibold">
        Install it on your device
      </h3>
      <p className="text-sm text-muted-foreground">
        Before you trust it, check that the SHA-256 fingerprint your device shows for the certificate matches
        the one above.
      </p>
      <div className="grid gap-2">
        {INSTALL_STEPS.map(({ system, steps }) => (
          <details key={system} className="rounded-lg border px-4 py-2 text-sm [&_summary]:cursor-pointer">
            <summary className="font-medium">{system}</summary>
            <ol className="mt-2 grid list-decimal gap-1.5 pl-5">
              {steps.map((step, i) => (
                <li key={i}>{step}</li>
              ))}
            </ol>
          </details>
        ))}
      </div>
    </section>
  );
}

function CertificateFacts({ cert }: { cert: TlsCertificateInfo }) {
  const names = [...cert.dnsNames, ...cert.ipAddresses];
  return (
    <dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
      <Fact label="Subject">{cert.subject}</Fact>
      <Fact label="Issuer">{cert.issuer}</Fact>
      <Fact label="Valid until">{formatDate(cert.notAfter)}</Fact>
      <Fact label="SHA-256 fingerprint">
        <span className="font-mono text-xs break-all">{cert.fingerprintSha256}</span>
      </Fact>
      <Fact label="Names and addresses" wide>
        <ul className="flex flex-wrap gap-1">
          {names.map((name) => (
            <li key={name}>
              <Badge variant="outline" className="font-mono">
                {name}
              </Badge>
            </li>
          ))}
        </ul>
      </Fact>
    </dl>
  );
}

/** Admins: the certificate in use, replacing it with the household's own, and going back. */
function CertificateAdmin() {
  const status = useQuery(tlsStatusQueryOptions());
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-3 border-t pt-4">
      <h3 id={headingId} className="flex items-center gap-2 font-semibold">
        <FileKey aria-hidden="true" className="size-4" />
        Certificate in use
        {status.data ? (
          <Badge variant="secondary">{status.data.source === 'owner' ? 'Your own' : 'The hub’s own'}</Badge>
        ) : null}
      </h3>
      {status.data ? (
        <>
          <CertificateFacts cert={status.data.certificate} />
          <ReplaceCertificate status={status.data} />
        </>
      ) : status.error ? (
        <p role="alert" className="text-sm text-destructive">
          Couldn&apos;t read the certificate: {errorMessage(status.error) ?? status.error.message}
        </p>
      ) : (
        <Skeleton className="h-24 w-full" aria-label="Loading the certificate" />
      )}
    </section>
  );
}

function ReplaceCertificate({ status }: { status: TlsStatus }) {
  const replace = useReplaceCertificate();
  const reset = useResetCertificate();
  const [certificate, setCertificate] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const certId = useId();
  const keyId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    replace.mutate(
      { certificate, privateKey },
      {
        onSuccess: () => {
          setCertificate('');
          setPrivateKey('');
          toast({
            title: 'Certificate replaced',
            description: 'New connections get it now; no restart needed.',
          });
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-3" aria-label="Use your own certificate">
      <p className="text-sm text-muted-foreground">
        Use your own certificate (for example one for a public name): paste it in PEM form, the server
        certificate first and then its intermediates, with its unencrypted private key. The key is stored
        sealed and never shown again.
      </p>
      <div className="grid gap-1.5">
        <Label htmlFor={certId}>Certificate chain (PEM)</Label>
        <Textarea
          id={certId}
          value={certificate}
          onChange={(e) => setCertificate(e.target.value)}
          rows={5}
          className="font-mono text-xs"
          placeholder="-----BEGIN CERTIFICATE-----"
          required
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={keyId}>Private key (PEM)</Label>
        <Textarea
          id={keyId}
          value={privateKey}
          onChange={(e) => setPrivateKey(e.target.value)}
          rows={4}
          className="font-mono text-xs"
          placeholder="-----BEGIN PRIVATE KEY-----"
          autoComplete="off"
          spellCheck={false}
          required
        />
      </div>
      {replace.error ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(replace.error) ?? 'The certificate was not accepted'}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={replace.isPending || !certificate || !privateKey}>
          {replace.isPending ? <Spinner /> : null}
          Use this certificate
        </Button>
        {status.source === 'owner' ? (
          <ConfirmButton
            type="button"
            variant="outline"
            question="Go back to the hub’s own certificate?"
            description="Devices that have not installed the hub’s certificate authority will warn again."
            confirmLabel="Use the hub’s certificate"
            onConfirm={() =>
              reset.mutate(undefined, { onSuccess: () => toast({ title: 'Back to the hub’s certificate' }) })
            }
            disabled={reset.isPending}
          >
            <LockOpen aria-hidden="true" />
            Use the hub’s certificate again
          </ConfirmButton>
        ) : null}
      </div>
    </form>
  );
}
