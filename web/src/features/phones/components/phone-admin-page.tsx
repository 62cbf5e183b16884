import { useQuery } from '@tanstack/react-query';
import { Check, Copy, Smartphone } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { CreatedPhonePairing, PairedPhone } from '@nexus/agent/contract';
import { QrCode } from '@/features/account/components/qr-code';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { pairingQueryOptions, phonesQueryOptions, useCreatePairing, useRevokePhone } from '@/data/auth';
import { pageContainer } from '@/components/page-container';

/** /phone-admin: pair a phone by QR code and manage the phones signed in to this account. */
export function PhoneAdminPage() {
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Phone Admin</h1>
        <p className="text-sm text-muted-foreground">
          Sign a phone in to your account by scanning a QR code, and sign phones out again. Add the console to
          the phone&apos;s home screen to open it like an app.
        </p>
      </header>
      <PairCard />
      <PairedPhonesCard />
    </div>
  );
}

function PairCard() {
  const id = useId();
  const [name, setName] = useState('');
  const create = useCreatePairing();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim() });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Smartphone aria-hidden="true" className="size-5" />
          Pair a phone
        </CardTitle>
        <CardDescription>
          The link signs one phone in as you and works once, for ten minutes. Anyone who scans it gets your
          access: show it only to your own phone.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {create.data ? (
          <PairingLink
            key={create.data.id}
            pairing={create.data}
            onDone={() => {
              create.reset();
              setName('');
            }}
          />
        ) : (
          <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex-1 space-y-2">
              <Label htmlFor={`${id}-name`}>Phone name</Label>
              <Input
                id={`${id}-name`}
                value={name}
                maxLength={60}
                placeholder="e.g. Anna's iPhone"
                onChange={(e) => setName(e.target.value)}
                required
              />
            </div>
            <Button type="submit" disabled={create.isPending || !name.trim()}>
              {create.isPending ? 'Making a link…' : 'Make a pairing link'}
            </Button>
          </form>
        )}
        {create.error ? (
          <Alert variant="destructive">
            <AlertTitle>Could not make a pairing link</AlertTitle>
            <AlertDescription>{errorMessage(create.error)}</AlertDescription>
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Seconds until `iso`, ticking each second; never below 0. */
function useSecondsUntil(iso: string): number {
  const until = () => Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(until);
  useEffect(() => {
    const timer = setInterval(() => setSeconds(until()), 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- until() only reads iso
  }, [iso]);
  return seconds;
}

function PairingLink({ pairing, onDone }: { pairing: CreatedPhonePairing; onDone: () => void }) {
  const id = useId();
  const seconds = useSecondsUntil(pairing.expiresAt);
  const status = useQuery(pairingQueryOptions(pairing.id));
  const [copied, setCopied] = useState(false);
  const state = status.data?.status ?? 'waiting';
  const expired = state === 'expired' || (state === 'waiting' && seconds === 0);

  if (state === 'paired') {
    return (
      <div className="space-y-4">
        <p role="status" className="flex items-center gap-2 font-medium text-success">
          <Check aria-hidden="true" className="size-5" />
          Paired: {pairing.name} is signed in.
        </p>
        <Button type="button" variant="outline" onClick={onDone}>
          Pair another phone
        </Button>
      </div>
    );
  }
  if (expired) {
    return (
      <div className="space-y-4">
        <p role="status" className="text-sm">
          This link expired before a phone used it.
        </p>
        <Button type="button" onClick={onDone}>
          Make a new link
        </Button>
      </div>
    );
  }
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return (
    <div className="flex flex-col gap-6 sm:flex-row">
      <QrCode value={pairing.url} alt={`QR code that signs in ${pairing.name}`} />
      <div className="min-w-0 flex-1 space-y-3">
        <p className="text-sm">
          Scan it with <span className="font-medium">{pairing.name}</span>&apos;s camera, or open the link on
          it.
        </p>
        <div className="space-y-2">
          <Label htmlFor={`${id}-link`}>Pairing link</Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-link`}
              readOnly
              value={pairing.url}
              className="font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button
              type="button"
              variant="outline"
              size="icon"
              aria-label={copied ? 'Copied' : 'Copy the link'}
              disabled={!navigator.clipboard}
              onClick={() => {
                void navigator.clipboard.writeText(pairing.url).then(() => setCopied(true));
              }}
            >
              {copied ? (
                <Check aria-hidden="true" className="size-4" />
              ) : (
                <Copy aria-hidden="true" className="size-4" />
              )}
            </Button>
          </div>
        </div>
        <p className="text-sm text-muted-foreground" aria-live="off">
          Waiting for the phone… the link expires in{' '}
          <time dateTime={`PT${seconds}S`}>
            {minutes}:{rest}
          </time>
          .
        </p>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

const formatDate = (iso: string) => new Date(iso).toLocaleString();

function PairedPhonesCard() {
  const list = useQuery(phonesQueryOptions());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Paired phones</CardTitle>
        <CardDescription>
          Phones signed in to your account by a pairing link. Signing one out takes effect at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <RefreshError what="the paired phones" query={list} className="mb-4" />
        {list.isLoading ? (
          <div role="status" className="space-y-2">
            <span className="sr-only">Loading paired phones</span>
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : list.isLoadingError ? (
          <Alert variant="destructive">
            <AlertTitle>Could not load the paired phones</AlertTitle>
            <AlertDescription>{errorMessage(list.error)}</AlertDescription>
          </Alert>
        ) : list.data?.length ? (
          <ul aria-label="Paired phones" className="divide-y rounded-lg border">
            {list.data.map((phone) => (
              <PhoneRow key={phone.id} phone={phone} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No phone is paired yet.</p>
        )}
      </CardContent>
    </Card>
  );
}

function PhoneRow({ phone }: { phone: PairedPhone }) {
  const revoke = useRevokePhone();
  return (
    <li className="flex flex-wrap items-center gap-3 p-4">
      <Smartphone aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{phone.name}</p>
        <p className="text-xs text-muted-foreground">
          {phone.device ? `${phone.device} · ` : ''}paired {formatDate(phone.createdAt)} · last seen{' '}
          {formatDate(phone.lastSeenAt)}
        </p>
      </div>
      <ConfirmButton
        variant="outline"
        size="sm"
        destructive
        disabled={revoke.isPending}
        question={`Sign ${phone.name} out?`}
        description="The phone is signed out at once and needs a new pairing link to come back."
        confirmLabel="Sign out"
        aria-label={`Sign ${phone.name} out`}
        onConfirm={() =>
          revoke.mutate(phone.id, {
            onSuccess: () => toast({ title: `${phone.name} is signed out` }),
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Could not sign the phone out',
                description: errorMessage(error),
              }),
          })
        }
      >
        Sign out
      </ConfirmButton>
    </li>
  );
}
