import { Laptop, Smartphone } from 'lucide-react';
import type { SessionInfo } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { ConfirmButton } from '@/components/ui/confirm';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "Chrome 131 on Linux", or the phone's name, or what is known. */
export function describeSession(s: SessionInfo): string {
  if (s.kind === 'phone' && s.deviceName) return s.deviceName;
  const parts = [s.browser, s.os].filter(Boolean);
  if (parts.length === 2) return `${parts[0]} on ${parts[1]}`;
  return parts[0] ?? 'Unknown browser';
}

/**
 * A list of sign-ins, each with its address and times and a Sign out button (none for this one:
 * signing out here is the top bar's job). Shared by /settings and the admin's view of a user.
 */
export function SessionsList({
  sessions,
  busyId,
  onRevoke,
  ownerLabel,
}: {
  sessions: readonly SessionInfo[];
  busyId: string | null;
  onRevoke: (session: SessionInfo) => void;
  /** Whose sessions, for the confirmation ("your" or "Ann's"). */
  ownerLabel: string;
}) {
  return (
    <ul className="divide-y rounded-md border" aria-label="Signed-in devices">
      {sessions.map((s) => {
        const name = describeSession(s);
        const Icon = s.kind === 'phone' ? Smartphone : Laptop;
        return (
          <li key={s.id} className="flex flex-wrap items-center gap-3 p-3" data-testid="session-row">
            <Icon aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
            <div className="grid min-w-0 flex-1 gap-0.5 text-sm">
              <p className="font-medium">
                {name}
                {s.current ? (
                  <Badge variant="success" className="ml-2">
                    This device
                  </Badge>
                ) : null}
              </p>
              <p className="text-muted-foreground">
                {s.ipAddress ?? 'Unknown address'} · signed in{' '}
                <time dateTime={s.createdAt}>{when.format(new Date(s.createdAt))}</time> · last seen{' '}
                <time dateTime={s.lastSeenAt}>{when.format(new Date(s.lastSeenAt))}</time>
              </p>
            </div>
            {s.current ? null : (
              <ConfirmButton
                variant="outline"
                size="sm"
                destructive
                disabled={busyId === s.id}
                aria-label={`Sign out ${name}`}
                question={`Sign out ${name}?`}
                description={`That browser is signed out of ${ownerLabel} account on its next request and has to sign in again.`}
                confirmLabel="Sign out"
                onConfirm={() => onRevoke(s)}
              >
                {busyId === s.id ? 'Signing out...' : 'Sign out'}
              </ConfirmButton>
            )}
          </li>
        );
      })}
    </ul>
  );
}
