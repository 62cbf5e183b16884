import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, KeyRound, PlugZap, RefreshCw } from 'lucide-react';
import { Link } from 'wouter';
import type { HaConnectionHealth, HaConnectionState, HaStatus } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { StatusPill, type PillTone } from '@/components/ui/status-pill';
import { useAuth } from '@/features/auth';
import type { LiveConnectionState } from '@/lib/live';
import { errorMessage } from '@/lib/request';
import { haStatusQueryOptions } from '@/data/home-assistant';
import { pageContainer } from '@/components/page-container';

export function HaPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">{title}</h1>
          <p className="text-muted-foreground">{description}</p>
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

const STATE_WORDS: Record<HaConnectionState, string> = {
  not_configured: 'Not configured',
  connecting: 'Connecting',
  connected: 'Connected',
  reconnecting: 'Reconnecting',
  disconnected: 'Disconnected',
  auth_invalid: 'Token rejected',
};

export function connectionTone(state: HaConnectionState, health: HaConnectionHealth): PillTone {
  if (state === 'connected') return health === 'healthy' ? 'good' : 'warning';
  if (state === 'not_configured') return 'neutral';
  if (state === 'connecting' || state === 'reconnecting') return 'warning';
  return 'bad';
}

export function ConnectionPill({ status }: { status: Pick<HaStatus, 'state' | 'health'> }) {
  const word =
    status.state === 'connected' && status.health === 'degraded' ? 'Degraded' : STATE_WORDS[status.state];
  return (
    <StatusPill tone={connectionTone(status.state, status.health)} data-state={status.state}>
      Home Assistant: {word}
    </StatusPill>
  );
}

export function LivePill({ state }: { state: LiveConnectionState }) {
  if (state === 'open') {
    return (
      <StatusPill tone="good" pulse>
        Live
      </StatusPill>
    );
  }
  if (state === 'connecting' || state === 'reconnecting')
    return <StatusPill tone="warning">Reconnecting live updates</StatusPill>;
  return <StatusPill tone="neutral">Not live</StatusPill>;
}

/**
 * What every Home Assistant screen shows when the hub cannot use Home Assistant: why, and
 * what to do next. Nothing while connected and healthy.
 */
export function ConnectionBanner({ status }: { status: HaStatus | undefined }) {
  const { isAdmin } = useAuth();
  if (!status || (status.state === 'connected' && status.health === 'healthy')) return null;
  const setup = isAdmin ? (
    <Button asChild size="sm" variant="outline" className="mt-2 w-fit">
      <Link href="/ha-connection-setup">Open connection setup</Link>
    </Button>
  ) : (
    <p className="mt-1">Ask an administrator of the hub to connect it.</p>
  );
  if (status.state === 'not_configured') {
    return (
      <Alert>
        <PlugZap aria-hidden="true" />
        <AlertTitle>Home Assistant isn&apos;t connected yet</AlertTitle>
        <AlertDescription>
          <p>
            {status.message ?? 'Give the hub the address of Home Assistant and a long-lived access token.'}
          </p>
          {setup}
        </AlertDescription>
      </Alert>
    );
  }
  if (status.state === 'auth_invalid') {
    return (
      <Alert variant="destructive">
        <KeyRound aria-hidden="true" />
        <AlertTitle>Home Assistant rejected the token</AlertTitle>
        <AlertDescription>
          <p>{status.message}</p>
          {setup}
        </AlertDescription>
      </Alert>
    );
  }
  if (status.state === 'connected') {
    return (
      <Alert variant="warning">
        <AlertCircle aria-hidden="true" />
        <AlertTitle>Home Assistant is degraded</AlertTitle>
        <AlertDescription>
          <p>{status.message}</p>
          {setup}
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive">
      <RefreshCw aria-hidden="true" />
      <AlertTitle>
        {status.state === 'connecting' ? 'Connecting to Home Assistant…' : 'Home Assistant is not reachable'}
      </AlertTitle>
      <AlertDescription>
        <p>{status.message ?? 'The hub keeps trying.'}</p>
        {status.nextRetryAt ? (
          <p>Next attempt at {new Date(status.nextRetryAt).toLocaleTimeString()}.</p>
        ) : status.state === 'reconnecting' ? (
          <p>The hub reconnects on its own; what you see below may be out of date.</p>
        ) : null}
        {/* A wrong address or a moved Home Assistant is fixed in its settings (issue 21: no dead end). */}
        {status.state === 'connecting' ? null : setup}
      </AlertDescription>
    </Alert>
  );
}

/** The connection's status query, shared by every HA screen. */
export function useHaStatus() {
  return useQuery(haStatusQueryOptions());
}

export function ErrorCard({ title, error }: { title: string; error: Error }) {
  return (
    <Card>
      <CardContent className="pt-6">
        <div role="alert" className="flex items-start gap-2 text-sm text-destructive">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <div>
            <p className="font-medium">{title}</p>
            <p>{errorMessage(error) ?? error.message}</p>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed p-6 text-center text-sm">
      <p className="font-medium">{title}</p>
      <div className="mt-1 text-muted-foreground">{children}</div>
    </div>
  );
}
