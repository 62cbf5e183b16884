import { useQuery } from '@tanstack/react-query';
import { Loader2, MailPlus, X } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import {
  INVITE_DEFAULT_HOURS,
  INVITE_MAX_HOURS,
  INVITE_MIN_HOURS,
  inviteRoleSchema,
  registrationModeSchema,
  type CreatedInvite,
  type Invite,
  type InviteRole,
  type InviteStatus,
  type RegistrationMode,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { CopyButton } from '@/features/satellites/components/copy-button';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import {
  invitesQueryOptions,
  registrationQueryOptions,
  useCreateInvite,
  useRevokeInvite,
  useSetRegistrationMode,
} from '@/data/auth';
import { ROLE_LABELS } from '../rules';

const MODE_LABELS: Record<RegistrationMode, string> = {
  open: 'Open: anyone who reaches the hub',
  invite: 'By invite only',
  closed: 'Closed: no new accounts',
};

const MODE_HELP: Record<RegistrationMode, string> = {
  open: 'Anyone who can open this console may create an account, as a user. Use this only on a network you trust.',
  invite: 'People register with a one-time invite you create below; the link fills in the code for them.',
  closed: 'Nobody can register. Existing accounts sign in as before.',
};

/** Who may create accounts on this hub: the registration mode (GET/PUT /api/auth/registration). */
export function RegistrationModeCard() {
  const status = useQuery(registrationQueryOptions());
  const setMode = useSetRegistrationMode();
  const helpId = useId();
  const mode = status.data?.mode;

  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Registration
        </CardTitle>
        <CardDescription>Who may create an account on this hub from the sign-in screen.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {status.isLoading ? (
          <Skeleton className="h-9 w-72" />
        ) : status.error || !mode ? (
          <Alert variant="destructive">
            <AlertTitle>Could not load the registration mode</AlertTitle>
            <AlertDescription>{errorMessage(status.error) ?? 'The hub did not answer.'}</AlertDescription>
          </Alert>
        ) : (
          <>
            <Label htmlFor="registration-mode">Registration mode</Label>
            <div className="flex items-center gap-2">
              <Select
                value={mode}
                disabled={setMode.isPending}
                onValueChange={(value) =>
                  setMode.mutate(registrationModeSchema.parse(value), {
                    onSuccess: (next) => toast({ title: `Registration: ${MODE_LABELS[next.mode]}` }),
                    onError: (error) =>
                      toast({
                        title: 'Could not change the registration mode',
                        description: errorMessage(error) ?? 'The hub did not say why.',
                        variant: 'destructive',
                      }),
                  })
                }
              >
                <SelectTrigger id="registration-mode" className="w-72" aria-describedby={helpId}>
                  <SelectValue>{MODE_LABELS[mode]}</SelectValue>
                </SelectTrigger>
                <SelectContent>
                  {(['invite', 'open', 'closed'] as const).map((m) => (
                    <SelectItem key={m} value={m}>
                      {MODE_LABELS[m]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {setMode.isPending && (
                <Loader2 aria-label="Saving" className="size-4 animate-spin text-muted-foreground" />
              )}
            </div>
            <p id={helpId} className="text-sm text-muted-foreground">
              {MODE_HELP[mode]}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}

const STATUS_LABELS: Record<InviteStatus, string> = {
  pending: 'Waiting',
  used: 'Used',
  expired: 'Expired',
  revoked: 'Revoked',
};

const EXPIRY_CHOICES = [
  { hours: 24, label: '1 day' },
  { hours: INVITE_DEFAULT_HOURS, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: INVITE_MAX_HOURS, label: '30 days' },
] as const;

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => dateTime.format(new Date(iso));

/** One-time invites: create one (its code and link shown once), see them all, revoke waiting ones. */
export function InvitesCard() {
  const invites = useQuery(invitesQueryOptions());
  const create = useCreateInvite();
  const [role, setRole] = useState<InviteRole>('user');
  const [hours, setHours] = useState<number>(INVITE_DEFAULT_HOURS);
  const [created, setCreated] = useState<CreatedInvite | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(
      { role, expiresInHours: hours },
      {
        onSuccess: setCreated,
        onError: (error) =>
          toast({
            title: 'Could not create the invite',
            description: errorMessage(error) ?? 'The hub did not say why.',
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Invites
        </CardTitle>
        <CardDescription>
          A one-time link for one person to register. It works once, until it expires; the hub keeps only a
          fingerprint of the code, so copy it now.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form onSubmit={submit} className="flex flex-wrap items-end gap-4" aria-label="New invite">
          <div className="grid gap-1">
            <Label htmlFor="invite-role">Role</Label>
            <Select value={role} onValueChange={(value) => setRole(inviteRoleSchema.parse(value))}>
              <SelectTrigger id="invite-role" className="w-36">
                <SelectValue>{ROLE_LABELS[role]}</SelectValue>
              </SelectTrigger>
              <SelectContent>
                {inviteRoleSchema.options.map((r) => (
                  <SelectItem key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1">
            <Label htmlFor="invite-expiry">Expires after</Label>
            <Select value={String(hours)} onValueChange={(value) => setHours(Number(value))}>
              <SelectTrigger id="invite-expiry" className="w-36">
                <SelectValue>
                  {EXPIRY_CHOICES.find((c) => c.hours === hours)?.label ?? `${hours} hours`}
                </SelectValue>
              </SelectTrigger>
              <SelectContent>
                {EXPIRY_CHOICES.map((c) => (
                  <SelectItem key={c.hours} value={String(c.hours)}>
                    {c.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
            {create.isPending ? (
              <Loader2 aria-hidden="true" className="animate-spin" />
            ) : (
              <MailPlus aria-hidden="true" />
            )}
            Create invite
          </Button>
        </form>

        {created && <NewInvite invite={created} onDone={() => setCreated(null)} />}

        <RefreshError what="the invites" query={invites} />
        {invites.isLoading ? (
          <div role="status" className="grid gap-2">
            <span className="sr-only">Loading invites</span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : invites.isLoadingError ? (
          <Alert variant="destructive">
            <AlertTitle>Could not load the invites</AlertTitle>
            <AlertDescription>{errorMessage(invites.error)}</AlertDescription>
          </Alert>
        ) : !invites.data?.length ? (
          <p className="text-sm text-muted-foreground">No invites yet.</p>
        ) : (
          <InvitesTable invites={invites.data} />
        )}
        <p className="text-xs text-muted-foreground">
          Valid for {INVITE_MIN_HOURS} hour to {INVITE_MAX_HOURS / 24} days. Used, expired and revoked invites
          are listed for 30 days.
        </p>
      </CardContent>
    </Card>
  );
}

/** The code and the link, shown this once (the hub stores only their SHA-256). */
function NewInvite({ invite, onDone }: { invite: CreatedInvite; onDone: () => void }) {
  return (
    <section
      aria-label="New invite"
      className="grid gap-3 rounded-lg border border-success/40 bg-success/10 p-4"
    >
      <p className="font-medium">
        Copy the invite now: it is shown only this once. It makes one {ROLE_LABELS[invite.role]} account and
        expires {when(invite.expiresAt)}.
      </p>
      <ShownOnce label="Invite link" value={invite.url} testId="new-invite-link" />
      <ShownOnce label="Invite code" value={invite.code} testId="new-invite-code" className="font-mono" />
      <Button size="sm" variant="ghost" className="justify-self-start" onClick={onDone}>
        Done: hide it
      </Button>
    </section>
  );
}

function InvitesTable({ invites }: { invites: readonly Invite[] }) {
  const revoke = useRevokeInvite();
  return (
    <Table label="Invites table">
      <TableHeader>
        <TableRow>
          <TableHead>Role</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead>Used by</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {invites.map((invite) => (
          <TableRow key={invite.id} data-testid={`invite-${invite.id}`}>
            <TableCell>{ROLE_LABELS[invite.role]}</TableCell>
            <TableCell>
              <Badge variant={invite.status === 'pending' ? 'default' : 'outline'}>
                {STATUS_LABELS[invite.status]}
              </Badge>
            </TableCell>
            <TableCell>
              {when(invite.createdAt)}
              {invite.createdBy && (
                <span className="block text-xs text-muted-foreground">by {invite.createdBy.name}</span>
              )}
            </TableCell>
            <TableCell>{when(invite.expiresAt)}</TableCell>
            <TableCell>{invite.usedBy?.name ?? (invite.usedAt ? 'A removed account' : '—')}</TableCell>
            <TableCell className="text-right">
              {invite.status === 'pending' && (
                <ConfirmButton
                  size="sm"
                  variant="outline"
                  question="Revoke this invite?"
                  description="Nobody can register with its link or code any more. This cannot be undone."
                  confirmLabel="Revoke"
                  destructive
                  disabled={revoke.isPending && revoke.variables === invite.id}
                  aria-label={`Revoke the ${ROLE_LABELS[invite.role]} invite created ${when(invite.createdAt)}`}
                  onConfirm={() =>
                    revoke.mutate(invite.id, {
                      onSuccess: () => toast({ title: 'Invite revoked' }),
                      onError: (error) =>
                        toast({
                          title: 'Could not revoke the invite',
                          description: errorMessage(error) ?? 'The hub did not say why.',
                          variant: 'destructive',
                        }),
                    })
                  }
                >
                  <X aria-hidden="true" />
                  Revoke
                </ConfirmButton>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A value shown once (the invite's link or code) with its copy button. */
function ShownOnce({
  label,
  value,
  testId,
  className,
}: {
  label: string;
  value: string;
  testId: string;
  className?: string;
}) {
  const valueRef = useRef<HTMLElement>(null);
  return (
    <div className="grid gap-1">
      <span className="text-sm font-medium">{label}</span>
      <div className="flex items-start gap-2">
        <code
          ref={valueRef}
          data-testid={testId}
          className={cn('flex-1 rounded bg-background px-2 py-1 text-xs break-all', className)}
        >
          {value}
        </code>
        <CopyButton text={value} label={`Copy the ${label.toLowerCase()}`} target={valueRef} />
      </div>
    </div>
  );
}
