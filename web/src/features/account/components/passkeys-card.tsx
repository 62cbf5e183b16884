import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Fingerprint, Loader2, Pencil } from 'lucide-react';
import { Link } from 'wouter';
import { PASSKEY_NAME_MAX, type Passkey } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { ConfirmButton } from '@/components/ui/confirm';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import {
  isPasskeyCancelled,
  isReauthRequired,
  passkeyErrorMessage,
  passkeysQueryOptions,
  passkeysSupported,
  useAddPasskey,
  useDeletePasskey,
  useRenamePasskey,
} from '@/data/auth';
import { useReauth } from '../reauth/reauth';

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * The account's passkeys: add one (named), rename, delete (after re-authentication when the last
 * proof is older than five minutes). On /enroll-passkey in full; in /settings with `compact`,
 * which links to /enroll-passkey for adding.
 */
export function PasskeysCard({ compact = false }: { compact?: boolean }) {
  const id = useId();
  const list = useQuery(passkeysQueryOptions());
  const add = useAddPasskey();
  const remove = useDeletePasskey(useReauth());
  const [name, setName] = useState('');
  const supported = passkeysSupported();

  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name, {
      onSuccess: (passkey) => {
        setName('');
        toast({ title: 'Passkey added', description: `“${passkey.name}” can now sign you in.` });
      },
      onError: (error) => {
        if (isPasskeyCancelled(error)) return;
        toast({
          title: 'Could not add the passkey',
          description: passkeyErrorMessage(error),
          variant: 'destructive',
        });
      },
    });
  };

  const deletePasskey = (passkey: Passkey) =>
    remove.mutate(passkey.id, {
      onSuccess: () =>
        toast({ title: 'Passkey deleted', description: `“${passkey.name}” no longer signs you in.` }),
      onError: (error) => {
        // Cancelling the password prompt is not a failure worth a toast.
        if (isReauthRequired(error)) return;
        toast({
          title: 'Could not delete the passkey',
          description: errorMessage(error),
          variant: 'destructive',
        });
      },
    });

  const passkeys = list.data ?? [];

  return (
    <Panel
      title="Passkeys"
      description={
        <>
          A passkey signs you in with your device’s fingerprint, face or PIN instead of a password. It counts
          as both factors, so no 2FA code is asked after it.
        </>
      }
      contentClassName="space-y-6"
    >
      {!supported ? (
        <Alert>
          <Fingerprint aria-hidden="true" />
          <AlertTitle>This browser cannot use passkeys here</AlertTitle>
          <AlertDescription>
            Passkeys need a browser that supports them and a secure address (HTTPS, or localhost).
          </AlertDescription>
        </Alert>
      ) : compact ? (
        <Button asChild variant="outline">
          <Link href="/enroll-passkey">
            <Fingerprint aria-hidden="true" />
            Add a passkey
          </Link>
        </Button>
      ) : (
        <form onSubmit={submitAdd} className="flex flex-wrap items-end gap-3" aria-label="Add a passkey">
          <div className="grid min-w-56 flex-1 gap-1.5">
            <Label htmlFor={`${id}-name`}>Passkey name</Label>
            <Input
              id={`${id}-name`}
              placeholder="e.g. My laptop"
              maxLength={PASSKEY_NAME_MAX}
              autoComplete="off"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <Button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
            {add.isPending ? (
              <Loader2 aria-hidden="true" className="animate-spin" />
            ) : (
              <Fingerprint aria-hidden="true" />
            )}
            Add a passkey
          </Button>
        </form>
      )}

      <RefreshError what="your passkeys" query={list} />
      {list.isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading your passkeys</span>
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : list.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your passkeys</AlertTitle>
          <AlertDescription>{errorMessage(list.error)}</AlertDescription>
        </Alert>
      ) : passkeys.length === 0 ? (
        <p className="text-sm text-muted-foreground">You have no passkeys yet.</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              deleting={remove.isPending && remove.variables === passkey.id}
              onDelete={() => deletePasskey(passkey)}
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function PasskeyRow({
  passkey,
  deleting,
  onDelete,
}: {
  passkey: Passkey;
  deleting: boolean;
  onDelete: () => void;
}) {
  const id = useId();
  const rename = useRenamePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);

  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: () => setEditing(false),
        onError: (error) =>
          toast({
            title: 'Could not rename the passkey',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <li className="flex flex-wrap items-center gap-3 p-3" data-testid="passkey-row">
      <Fingerprint aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
      {editing ? (
        <form
          onSubmit={submitRename}
          className="flex flex-1 flex-wrap items-center gap-2"
          aria-label="Rename passkey"
        >
          <Label htmlFor={`${id}-rename`} className="sr-only">
            New name for {passkey.name}
          </Label>
          <Input
            id={`${id}-rename`}
            className="h-8 max-w-64"
            maxLength={PASSKEY_NAME_MAX}
            autoFocus
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setEditing(false);
            }}
          />
          <Button type="submit" size="sm" disabled={rename.isPending || !name.trim()}>
            Save
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words">{passkey.name}</p>
          <p className="text-xs text-muted-foreground">
            Added <time dateTime={passkey.createdAt}>{formatDate(passkey.createdAt)}</time>
            {' · '}
            {passkey.lastUsedAt ? (
              <>
                last used <time dateTime={passkey.lastUsedAt}>{formatDate(passkey.lastUsedAt)}</time>
              </>
            ) : (
              'never used'
            )}
          </p>
        </div>
      )}
      {passkey.backedUp ? <Badge variant="secondary">Synced</Badge> : null}
      {!editing ? (
        <div className="flex gap-1">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setName(passkey.name);
              setEditing(true);
            }}
            aria-label={`Rename ${passkey.name}`}
          >
            <Pencil aria-hidden="true" />
            Rename
          </Button>
          <ConfirmButton
            size="sm"
            variant="ghost"
            className="text-destructive"
            question={`Delete “${passkey.name}”?`}
            description="You will no longer be able to sign in with this passkey. Remove it from your device’s password manager too."
            confirmLabel="Delete"
            destructive
            disabled={deleting}
            aria-label={`Delete ${passkey.name}`}
            onConfirm={onDelete}
          >
            Delete
          </ConfirmButton>
        </div>
      ) : null}
    </li>
  );
}
