import { useQuery } from '@tanstack/react-query';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Panel } from '@/components/ui/panel';
import { ConfirmButton } from '@/components/ui/confirm';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { sessionsQueryOptions, useRevokeOtherSessions, useRevokeSession } from '@/data/auth';
import { describeSession, SessionsList } from './sessions-list';

/** /settings, "Where you're signed in": every browser and phone of the account, and signing them out. */
export function SessionsCard() {
  const list = useQuery(sessionsQueryOptions());
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const others = list.data?.filter((s) => !s.current).length ?? 0;
  const failed = revoke.error ?? revokeOthers.error;

  return (
    <Panel
      title="Where you're signed in"
      description={
        <>
          Browsers and phones signed in to your account. Sign out any you do not recognise, then change your
          password.
        </>
      }
      contentClassName="grid gap-3"
    >
      <RefreshError what="your sessions" query={list} />
      {list.isLoading ? (
        <div role="status" className="grid gap-2">
          <span className="sr-only">Loading your sessions</span>
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : list.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your sessions</AlertTitle>
          <AlertDescription>{errorMessage(list.error)}</AlertDescription>
        </Alert>
      ) : (
        <>
          <SessionsList
            sessions={list.data ?? []}
            ownerLabel="your"
            busyId={revoke.isPending ? (revoke.variables ?? null) : null}
            onRevoke={(s) =>
              revoke.mutate(s.id, { onSuccess: () => toast({ title: `${describeSession(s)} signed out` }) })
            }
          />
          {others === 0 ? (
            <p className="text-sm text-muted-foreground">You are signed in on this device only.</p>
          ) : (
            <ConfirmButton
              variant="outline"
              className="justify-self-start"
              destructive
              disabled={revokeOthers.isPending}
              question="Sign out everywhere else?"
              description={`${others} other ${others === 1 ? 'device is' : 'devices are'} signed out; this one stays signed in.`}
              confirmLabel="Sign out everywhere else"
              onConfirm={() =>
                revokeOthers.mutate(undefined, {
                  onSuccess: ({ revoked }) =>
                    toast({ title: `Signed out ${revoked} other ${revoked === 1 ? 'device' : 'devices'}` }),
                })
              }
            >
              Sign out everywhere else
            </ConfirmButton>
          )}
        </>
      )}
      {failed ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(failed)}
        </p>
      ) : null}
    </Panel>
  );
}
