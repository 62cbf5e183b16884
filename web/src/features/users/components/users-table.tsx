import { Ban, CircleCheck, Trash2 } from 'lucide-react';
import { roleSchema, type PublicUser, type Role } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { ConfirmButton } from '@/components/ui/confirm';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { Button } from '@/components/ui/button';
import { useChangeRole, useDeleteUser, useSetDisabled } from '@/data/auth';
import { UserSessionsDialog } from './user-sessions-dialog';
import { permissionsFor, ROLE_LABELS } from '../rules';

/** A change the agent refused, with its reason, kept on screen until the next attempt. */
export interface Refusal {
  title: string;
  message: string;
}

const createdFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function UsersTable({
  users,
  actor,
  onAttempt,
  onRefused,
}: {
  users: readonly PublicUser[];
  actor: PublicUser;
  onAttempt: () => void;
  onRefused: (refusal: Refusal) => void;
}) {
  const changeRole = useChangeRole();
  const remove = useDeleteUser();
  const setDisabled = useSetDisabled();
  // A disabled superadmin cannot sign in, so it does not count as another one (the agent's rule).
  const superadmins = users.filter((u) => u.role === 'superadmin' && !u.disabled).length;
  const busy = (u: PublicUser) =>
    (changeRole.isPending && changeRole.variables?.id === u.id) ||
    (remove.isPending && remove.variables === u.id) ||
    (setDisabled.isPending && setDisabled.variables?.id === u.id);

  function toggleDisabled(target: PublicUser) {
    onAttempt();
    const disabled = !target.disabled;
    setDisabled.mutate(
      { id: target.id, disabled },
      {
        onSuccess: (updated) =>
          toast({
            title: disabled ? `${updated.name}'s account disabled` : `${updated.name}'s account enabled`,
            description: disabled ? 'They were signed out everywhere and cannot sign in.' : undefined,
          }),
        onError: (error) =>
          onRefused({
            title: `Could not ${disabled ? 'disable' : 'enable'} ${target.name}`,
            message: errorMessage(error) ?? 'The hub did not say why.',
          }),
      },
    );
  }

  function setRole(target: PublicUser, role: Role) {
    onAttempt();
    changeRole.mutate(
      { id: target.id, role },
      {
        onSuccess: (updated) => toast({ title: `${updated.name} is now ${ROLE_LABELS[updated.role]}` }),
        onError: (error) =>
          onRefused({
            title: `Could not change the role of ${target.name}`,
            message: errorMessage(error) ?? 'The hub did not say why.',
          }),
      },
    );
  }

  function deleteAccount(target: PublicUser) {
    onAttempt();
    remove.mutate(target.id, {
      onSuccess: () => toast({ title: `${target.name}'s account deleted` }),
      onError: (error) =>
        onRefused({
          title: `Could not delete ${target.name}`,
          message: errorMessage(error) ?? 'The hub did not say why.',
        }),
    });
  }

  return (
    <Table label="Accounts table">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Email</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>2FA</TableHead>
          <TableHead>Created</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((u) => {
          const { locked, roles } = permissionsFor(actor, u, superadmins);
          const lockedId = `account-${u.id}-locked`;
          return (
            <TableRow key={u.id} data-testid={`account-${u.email}`}>
              <TableCell className="font-medium">
                {u.name}
                {u.id === actor.id && (
                  <Badge variant="outline" className="ml-2">
                    You
                  </Badge>
                )}
                {u.disabled && (
                  <Badge variant="destructive" className="ml-2" data-testid="account-disabled">
                    Disabled
                  </Badge>
                )}
              </TableCell>
              <TableCell className="max-w-64 truncate" title={u.email}>
                {u.email}
              </TableCell>
              <TableCell>
                <div className="grid gap-1">
                  <Select
                    value={u.role}
                    disabled={locked !== null || busy(u)}
                    onValueChange={(value) => setRole(u, roleSchema.parse(value))}
                  >
                    <SelectTrigger
                      className="w-36"
                      aria-label={`Role of ${u.name}`}
                      aria-describedby={locked ? lockedId : undefined}
                    >
                      {/* Spelled out: an admin's options leave out a superadmin's own role. */}
                      <SelectValue>{ROLE_LABELS[u.role]}</SelectValue>
                    </SelectTrigger>
                    <SelectContent>
                      {roles.map((role) => (
                        <SelectItem key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  {locked && (
                    <p id={lockedId} className="max-w-56 text-xs text-muted-foreground">
                      {locked}
                    </p>
                  )}
                </div>
              </TableCell>
              <TableCell>
                {u.twoFactorEnabled ? (
                  <Badge variant="success">On</Badge>
                ) : (
                  <Badge variant="outline">Off</Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <time dateTime={u.createdAt}>{createdFormat.format(new Date(u.createdAt))}</time>
              </TableCell>
              <TableCell className="text-right whitespace-nowrap">
                <UserSessionsDialog user={u} />
                {u.disabled ? (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Enable ${u.name}`}
                    title={locked ?? `Enable ${u.name}`}
                    disabled={locked !== null || busy(u)}
                    onClick={() => toggleDisabled(u)}
                  >
                    <CircleCheck aria-hidden="true" />
                  </Button>
                ) : (
                  <ConfirmButton
                    destructive
                    variant="ghost"
                    size="icon"
                    aria-label={`Disable ${u.name}`}
                    aria-describedby={locked ? lockedId : undefined}
                    title={locked ?? `Disable ${u.name}`}
                    disabled={locked !== null || busy(u)}
                    question={`Disable ${u.name}'s account?`}
                    description={`${u.email} is signed out everywhere at once and cannot sign in until an admin enables the account again. Nothing is deleted.`}
                    confirmLabel="Disable account"
                    onConfirm={() => toggleDisabled(u)}
                  >
                    <Ban aria-hidden="true" />
                  </ConfirmButton>
                )}
                <ConfirmButton
                  destructive
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete ${u.name}`}
                  aria-describedby={locked ? lockedId : undefined}
                  title={locked ?? `Delete ${u.name}`}
                  disabled={locked !== null || busy(u)}
                  question={`Delete ${u.name}'s account?`}
                  description={`${u.email} is signed out everywhere and can no longer sign in. Their flows, FlowForge API keys, saved chats and notifications are deleted with the account. This cannot be undone.`}
                  confirmLabel="Delete account"
                  onConfirm={() => deleteAccount(u)}
                >
                  <Trash2 aria-hidden="true" />
                </ConfirmButton>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
