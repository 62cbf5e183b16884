import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { PublicUser } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ReauthProvider } from '@/features/account';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { usersQueryOptions } from '@/data/auth';
import { InvitesCard, RegistrationModeCard } from './registration-cards';
import { UsersTable, type Refusal } from './users-table';
import { pageContainer } from '@/components/page-container';

/** /user-management: the hub's accounts and their roles, for admins and superadmins. */
export function UserManagementPage() {
  const { user, isAdmin } = useAuth();
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">User Management</h1>
        <p className="text-sm text-muted-foreground">
          The accounts on this hub and their roles. Admins manage users and other admins; only a Super Admin
          grants, removes or changes the Super Admin role.
          {isAdmin ? (
            <>
              {' '}
              Sign-ins and every other security event are in the{' '}
              <Link href="/auth-dashboard" className="underline underline-offset-4">
                security log
              </Link>
              .
            </>
          ) : null}
        </p>
      </header>
      {isAdmin && user ? (
        // Role changes, disabling and deleting ask for the password again when the last proof is old.
        <ReauthProvider>
          <Accounts me={user} />
          <RegistrationModeCard />
          <InvitesCard />
        </ReauthProvider>
      ) : (
        <AdministratorsOnly />
      )}
    </div>
  );
}

/** The agent answers members 403 anyway; this says so before they try. */
function AdministratorsOnly() {
  return (
    <Card>
      <CardContent className="space-y-4 p-6">
        <p className="flex items-start gap-2 text-sm">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          Only administrators manage the accounts on this hub. Ask one of them if your role should change.
        </p>
        <Button asChild variant="outline">
          <Link href="/dashboard">Back to the dashboard</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function Accounts({ me }: { me: PublicUser }) {
  const list = useQuery(usersQueryOptions());
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  if (list.isLoading) {
    return (
      <div role="status" className="space-y-3">
        <span className="sr-only">Loading accounts</span>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (list.isLoadingError) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load the accounts</AlertTitle>
        <AlertDescription>{errorMessage(list.error)}</AlertDescription>
      </Alert>
    );
  }
  const users = list.data ?? [];
  const stale = <RefreshError what="the accounts" query={list} />;
  if (!users.length) {
    return (
      <div className="space-y-4">
        {stale}
        <Card>
          <CardContent className="p-6 text-sm text-muted-foreground">
            No accounts to show. People who register on this hub appear here.
          </CardContent>
        </Card>
      </div>
    );
  }
  // The list is read fresh; the session's copy of your role may be older (someone changed it).
  const actor = users.find((u) => u.id === me.id) ?? me;
  return (
    <div className="space-y-4">
      {stale}
      {refusal && (
        <Alert variant="destructive">
          <AlertTitle>{refusal.title}</AlertTitle>
          <AlertDescription>{refusal.message}</AlertDescription>
        </Alert>
      )}
      <UsersTable users={users} actor={actor} onAttempt={() => setRefusal(null)} onRefused={setRefusal} />
      {users.length === 1 && (
        <p className="text-sm text-muted-foreground">
          Yours is the only account so far. People you invite below appear here once they register.
        </p>
      )}
    </div>
  );
}
