import { useQuery } from '@tanstack/react-query';
import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import type { PublicUser } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { SessionsList, describeSession } from '@/features/account';
import { errorMessage } from '@/lib/request';
import { useRevokeUserSession, userSessionsQueryOptions } from '@/data/auth';

/** An admin's view of where one account is signed in, with Sign out per session. */
export function UserSessionsDialog({ user, disabled }: { user: PublicUser; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Sessions of ${user.name}`}
          title={`Where ${user.name} is signed in`}
          disabled={disabled}
        >
          <MonitorSmartphone aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Where {user.name} is signed in</DialogTitle>
          <DialogDescription>
            Signing a session out ends it on that device&apos;s next request; {user.name} can sign in again.
          </DialogDescription>
        </DialogHeader>
        {open ? <Sessions user={user} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function Sessions({ user }: { user: PublicUser }) {
  const list = useQuery(userSessionsQueryOptions(user.id));
  const revoke = useRevokeUserSession(user.id);
  if (list.isLoading) {
    return (
      <div role="status" className="grid gap-2">
        <span className="sr-only">Loading sessions</span>
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (list.isLoadingError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(list.error)}
      </p>
    );
  }
  const sessions = list.data ?? [];
  return (
    <div className="grid gap-2">
      <RefreshError what={`${user.name}'s sessions`} query={list} />
      {sessions.length === 0 ? (
        <p className="text-sm text-muted-foreground">{user.name} is not signed in anywhere.</p>
      ) : (
        <SessionsList
          sessions={sessions}
          ownerLabel={`${user.name}'s`}
          busyId={revoke.isPending ? (revoke.variables ?? null) : null}
          onRevoke={(s) =>
            revoke.mutate(s.id, {
              onSuccess: () => toast({ title: `${describeSession(s)} of ${user.name} signed out` }),
            })
          }
        />
      )}
      {revoke.error ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(revoke.error)}
        </p>
      ) : null}
    </div>
  );
}
