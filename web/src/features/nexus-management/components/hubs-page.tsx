import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Check, Copy, KeyRound, Network, Plus, RefreshCw, Trash2 } from 'lucide-react';
import type { CreatedAccessToken, RemoteHub, RemoteHubState } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import {
  accessTokensQueryOptions,
  hubsQueryOptions,
  useAddHub,
  useCreateAccessToken,
  useRefreshHub,
  useRemoveHub,
  useRevokeAccessToken,
} from '@/data/nexus-management';
import { pageContainer } from '@/components/page-container';

const STATE_BADGE: Record<
  RemoteHubState,
  { word: string; variant: 'success' | 'warning' | 'destructive' | 'outline' }
> = {
  online: { word: 'Online', variant: 'success' },
  degraded: { word: 'Degraded', variant: 'warning' },
  offline: { word: 'Offline', variant: 'destructive' },
  unauthorized: { word: 'Token rejected', variant: 'destructive' },
  error: { word: 'Error', variant: 'destructive' },
  unknown: { word: 'Not checked', variant: 'outline' },
};

function since(iso: string | null): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  return new Date(iso).toLocaleString();
}

function AddHubDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const add = useAddHub();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    add.mutate(
      { name: name.trim(), url: url.trim(), token: token.trim() },
      {
        onSuccess: (hub) => {
          toast({ title: 'Hub added', description: `${hub.name}: ${STATE_BADGE[hub.state].word}` });
          setOpen(false);
        },
        onError: (e) => setProblem(errorMessage(e) ?? 'The hub could not be added'),
      },
    );
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setName('');
          setUrl('');
          setToken('');
          setProblem(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" /> Add a hub
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Add a hub</DialogTitle>
            <DialogDescription>
              Its address as you open its console, and an access token created on that hub (Multi-Nexus →
              Access tokens). The token is stored encrypted and never shown again.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input
              id={`${id}-name`}
              required
              maxLength={64}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-url`}>Address</Label>
            <Input
              id={`${id}-url`}
              type="url"
              required
              placeholder="http://nexus-garage.local:8080"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-token`}>Access token</Label>
            <Input
              id={`${id}-token`}
              type="password"
              autoComplete="off"
              required
              placeholder="nxh_…"
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </div>
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Checking the hub...' : 'Add'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function HubCard({ hub, canManage }: { hub: RemoteHub; canManage: boolean }) {
  const refresh = useRefreshHub(hub.id);
  const remove = useRemoveHub(hub.id);
  const refreshNow = () =>
    refresh.mutate(undefined, {
      onError: (e) =>
        toast({ title: 'Refresh failed', description: errorMessage(e), variant: 'destructive' }),
    });
  const removeNow = () =>
    remove.mutate(undefined, {
      onSuccess: () => toast({ title: 'Hub removed', description: hub.name }),
      onError: (e) =>
        toast({ title: 'Could not remove the hub', description: errorMessage(e), variant: 'destructive' }),
    });
  const badge = STATE_BADGE[hub.state];
  const status = hub.remote?.status;
  return (
    <Card data-hub={hub.name}>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle role="heading" aria-level={2} className="flex flex-wrap items-center gap-2 text-lg">
            {hub.name}
            <Badge variant={badge.variant}>{badge.word}</Badge>
          </CardTitle>
          <CardDescription className="break-all">
            <a href={hub.url} target="_blank" rel="noreferrer" className="hover:underline">
              {hub.url}
            </a>
          </CardDescription>
        </div>
        <div className="flex gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Check ${hub.name} now`}
            onClick={refreshNow}
            disabled={refresh.isPending}
          >
            <RefreshCw aria-hidden="true" className={refresh.isPending ? 'animate-spin' : undefined} />
          </Button>
          {canManage ? (
            <AlertDialog>
              <AlertDialogTrigger asChild>
                <Button variant="ghost" size="icon" aria-label={`Remove ${hub.name}`}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Remove {hub.name}?</AlertDialogTitle>
                  <AlertDialogDescription>
                    This hub stops watching it and forgets its token. The other hub is not changed; revoke the
                    token there too if it should not be used again.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction variant="destructive" onClick={removeNow}>
                    Remove
                  </AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          ) : null}
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {hub.message ? <p className="text-muted-foreground">{hub.message}</p> : null}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <div>
            <dt className="text-xs text-muted-foreground">Calls itself</dt>
            <dd className="font-medium">{hub.remote?.hubName ?? '—'}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Version</dt>
            <dd className="font-medium">{hub.version ? `v${hub.version}` : '—'}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">CPU / memory</dt>
            <dd className="font-medium tabular-nums">
              {status ? `${Math.round(status.systemLoad)} % / ${Math.round(status.memoryUsage)} %` : '—'}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Answer</dt>
            <dd className="font-medium tabular-nums">
              {hub.latencyMs !== null ? `${hub.latencyMs} ms` : '—'}
            </dd>
          </div>
        </dl>
        {hub.remote && hub.remote.services.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5" aria-label={`${hub.name} services`}>
            {hub.remote.services.map((s) => (
              <li key={s.id}>
                <Badge
                  variant={
                    s.status === 'healthy'
                      ? 'success'
                      : s.status === 'down'
                        ? 'destructive'
                        : s.status === 'degraded'
                          ? 'warning'
                          : 'outline'
                  }
                >
                  {s.name}
                </Badge>
              </li>
            ))}
          </ul>
        ) : null}
        <p className="text-xs text-muted-foreground">
          Last seen {since(hub.lastSeenAt)}; checked {since(hub.checkedAt)}.
        </p>
      </CardContent>
    </Card>
  );
}

function CreatedTokenDialog({ created, onClose }: { created: CreatedAccessToken; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Access token for {created.name}</DialogTitle>
          <DialogDescription>
            Copy it now: it is shown this once. Paste it on the other hub under Multi-Nexus → Add a hub, with
            this hub&apos;s address.
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-2">
          <code
            className="min-w-0 flex-1 rounded-md bg-muted px-3 py-2 font-mono text-xs break-all"
            data-testid="created-token"
          >
            {created.token}
          </code>
          {navigator.clipboard ? (
            <Button
              variant="outline"
              size="icon"
              aria-label={copied ? 'Copied' : 'Copy the token'}
              onClick={() => void navigator.clipboard.writeText(created.token).then(() => setCopied(true))}
            >
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            </Button>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function AccessTokens() {
  const tokens = useQuery(accessTokensQueryOptions(true));
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const id = useId();
  const create = useCreateAccessToken();
  const revoke = useRevokeAccessToken();
  const createNow = (tokenName: string) =>
    create.mutate(tokenName, {
      onSuccess: (token) => {
        setCreated(token);
        setName('');
      },
      onError: (e) =>
        toast({ title: 'Could not create the token', description: errorMessage(e), variant: 'destructive' }),
    });
  const revokeNow = (tokenId: number) =>
    revoke.mutate(tokenId, {
      onError: (e) =>
        toast({ title: 'Could not revoke the token', description: errorMessage(e), variant: 'destructive' }),
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2} className="flex items-center gap-2 text-lg">
          <KeyRound aria-hidden="true" className="size-5 text-primary" />
          Access tokens
        </CardTitle>
        <CardDescription>
          Other hubs watch this one with a token created here. A token lets them read this hub&apos;s status
          and nothing else; it is stored only as a hash.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) createNow(name.trim());
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>For which hub</Label>
            <Input
              id={`${id}-name`}
              required
              maxLength={64}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Kitchen hub"
            />
          </div>
          <Button type="submit" variant="outline" disabled={create.isPending}>
            <Plus aria-hidden="true" /> Create a token
          </Button>
        </form>
        {tokens.data && tokens.data.length > 0 ? (
          <Table label="Access tokens table">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Token</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead className="sr-only">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tokens.data.map((t) => (
                <TableRow key={t.id}>
                  <TableCell className="font-medium">{t.name}</TableCell>
                  <TableCell className="font-mono text-xs">{t.prefix}…</TableCell>
                  <TableCell className="text-muted-foreground">{since(t.lastUsedAt)}</TableCell>
                  <TableCell className="text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => revokeNow(t.id)}
                      disabled={revoke.isPending}
                    >
                      Revoke
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : tokens.isPending ? (
          <Skeleton className="h-16" />
        ) : (
          <p className="text-sm text-muted-foreground">No tokens yet: no other hub can watch this one.</p>
        )}
        {created ? <CreatedTokenDialog created={created} onClose={() => setCreated(null)} /> : null}
      </CardContent>
    </Card>
  );
}

/** /multi-nexus: other hubs, added by address and access token, their status polled every 15 s. */
export function HubsPage() {
  const { isAdmin } = useAuth();
  const hubs = useQuery(hubsQueryOptions());
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight md:text-3xl">
            <Network aria-hidden="true" className="size-7 text-primary" />
            Multi-Nexus
          </h1>
          <p className="text-muted-foreground">
            Other Nexus hubs, watched from here: their status every 15 seconds.{' '}
            <Link href="/nexus-management" className="underline">
              This hub
            </Link>
          </p>
        </div>
        {isAdmin ? <AddHubDialog /> : null}
      </header>
      {hubs.error && !hubs.data ? (
        <Alert variant="destructive">
          <AlertTitle>The hubs could not be listed</AlertTitle>
          <AlertDescription>{errorMessage(hubs.error)}</AlertDescription>
        </Alert>
      ) : !hubs.data ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : hubs.data.length === 0 ? (
        <div className="rounded-lg border border-dashed p-8 text-sm text-muted-foreground">
          No other hubs yet.{' '}
          {isAdmin
            ? 'Create an access token on the other hub (Multi-Nexus → Access tokens), then add it here with its address.'
            : 'An administrator can add them.'}
        </div>
      ) : (
        <div className="grid gap-4 md:grid-cols-2" aria-live="polite">
          {hubs.data.map((hub) => (
            <HubCard key={hub.id} hub={hub} canManage={isAdmin} />
          ))}
        </div>
      )}
      {isAdmin ? <AccessTokens /> : null}
    </div>
  );
}
