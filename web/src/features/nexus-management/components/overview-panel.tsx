import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Cpu, Pencil, Server } from 'lucide-react';
import { isValidTimeZone, type HubOverview, type ServiceHealthState } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
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
import { formatDuration } from '@/lib/format-duration';
import { errorMessage } from '@/lib/request';
import { overviewQueryOptions, useSaveIdentity } from '@/data/nexus-management';

export const HEALTH_BADGE: Record<
  ServiceHealthState,
  { word: string; variant: 'success' | 'warning' | 'destructive' | 'outline' }
> = {
  healthy: { word: 'Healthy', variant: 'success' },
  degraded: { word: 'Degraded', variant: 'warning' },
  down: { word: 'Down', variant: 'destructive' },
  not_configured: { word: 'Not set up', variant: 'outline' },
};

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words">{value}</dd>
    </div>
  );
}

function IdentityDialog({ identity }: { identity: HubOverview['identity'] }) {
  const [open, setOpen] = useState(false);
  const [hubName, setHubName] = useState(identity.hubName);
  const [timeZone, setTimeZone] = useState(identity.timeZone);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const save = useSaveIdentity();
  const onSaved = {
    onSuccess: (overview: HubOverview) => {
      toast({
        title: 'Hub updated',
        description: `${overview.identity.hubName}, ${overview.identity.timeZone}`,
      });
      setOpen(false);
    },
    onError: (e: unknown) => setProblem(errorMessage(e) ?? 'Saving failed'),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValidTimeZone(timeZone.trim())) {
      setProblem('Not a time zone: use an IANA name such as Europe/Berlin.');
      return;
    }
    setProblem(null);
    save.mutate({ hubName: hubName.trim(), timeZone: timeZone.trim() }, onSaved);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setHubName(identity.hubName);
          setTimeZone(identity.timeZone);
          setProblem(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Pencil aria-hidden="true" /> Rename
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Hub name and time zone</DialogTitle>
            <DialogDescription>
              Other hubs that watch this one see the new name at their next poll.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>Hub name</Label>
            <Input
              id={`${id}-name`}
              required
              maxLength={64}
              value={hubName}
              onChange={(e) => setHubName(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-tz`}>Time zone</Label>
            <Input id={`${id}-tz`} required value={timeZone} onChange={(e) => setTimeZone(e.target.value)} />
          </div>
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function OverviewPanel() {
  const { isAdmin } = useAuth();
  const overview = useQuery(overviewQueryOptions());

  if (overview.error && !overview.data) {
    return (
      <Alert variant="destructive">
        <AlertTitle>The hub&apos;s overview could not be read</AlertTitle>
        <AlertDescription>{errorMessage(overview.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!overview.data) {
    return (
      <div className="grid gap-4 lg:grid-cols-2" aria-busy="true">
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
        <Skeleton className="h-64 lg:col-span-2" />
      </div>
    );
  }
  const { identity, board, services, setup } = overview.data;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {isAdmin && !setup.finished ? (
        <Alert className="lg:col-span-2">
          <AlertTitle>The setup is not finished</AlertTitle>
          <AlertDescription>
            <span>
              The wizard stopped at the {setup.currentStep.replace('-', ' ')} step.{' '}
              <Link href="/install" className="underline">
                Continue the setup
              </Link>
              .
            </span>
          </AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardHeader className="flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle role="heading" aria-level={2} className="flex items-center gap-2 text-lg">
              <Server aria-hidden="true" className="size-5 text-primary" />
              {identity.hubName}
            </CardTitle>
            <CardDescription>This hub</CardDescription>
          </div>
          {isAdmin ? <IdentityDialog identity={identity} /> : null}
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-4">
            <Fact label="Host name" value={identity.hostname} />
            <Fact label="Time zone" value={identity.timeZone} />
            <Fact label="Version" value={`v${identity.version}`} />
            <Fact label="Node.js" value={identity.nodeVersion} />
            <Fact label="Platform" value={`${identity.platform} ${identity.arch}`} />
            <Fact label="Host up for" value={formatDuration(identity.hostUptime)} />
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle role="heading" aria-level={2} className="flex items-center gap-2 text-lg">
            <Cpu aria-hidden="true" className="size-5 text-primary" />
            Hardware
          </CardTitle>
          <CardDescription>{board.isJetson ? 'NVIDIA Jetson' : 'Not a Jetson'}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <dl className="grid grid-cols-2 gap-4">
            <Fact
              label="Board"
              value={board.model ?? (board.isJetson ? 'Unknown Jetson' : 'A general-purpose computer')}
            />
            <Fact label="JetPack" value={board.jetpack ?? '—'} />
            <Fact label="Jetson Linux" value={board.l4t ? `R${board.l4t}` : '—'} />
          </dl>
          <div>
            <Button asChild variant="outline" size="sm">
              <Link href={isAdmin ? '/jetson-check' : '/nexus-status'}>
                {isAdmin ? 'Run the Jetson check' : 'Live status'}
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card className="lg:col-span-2">
        <CardHeader className="flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle role="heading" aria-level={2} className="text-lg">
              Services
            </CardTitle>
            <CardDescription>
              Checked {new Date(overview.data.checkedAt).toLocaleTimeString()}; every 10 seconds while this is
              open.
            </CardDescription>
          </div>
          <Button asChild variant="outline" size="sm">
            <Link href="/nexus-status">Live status</Link>
          </Button>
        </CardHeader>
        <CardContent>
          <Table label="Services table">
            <TableHeader>
              <TableRow>
                <TableHead>Service</TableHead>
                <TableHead>Health</TableHead>
                <TableHead>Details</TableHead>
                <TableHead className="text-right">Answer</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {services.map((s) => (
                <TableRow key={s.id} data-service={s.id}>
                  <TableCell className="font-medium">
                    {s.link ? (
                      <Link href={s.link} className="hover:underline">
                        {s.name}
                      </Link>
                    ) : (
                      s.name
                    )}
                  </TableCell>
                  <TableCell>
                    <Badge variant={HEALTH_BADGE[s.status].variant}>{HEALTH_BADGE[s.status].word}</Badge>
                  </TableCell>
                  <TableCell className="max-w-md text-sm whitespace-normal text-muted-foreground">
                    {s.detail}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {s.latencyMs !== null ? `${s.latencyMs} ms` : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
