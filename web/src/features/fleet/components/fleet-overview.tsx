import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, LogOut, Network, PlusCircle, RotateCw, Server, UserPlus } from 'lucide-react';
import type { FleetStatus, SwarmRole } from '@nexus/agent/contract';
import { Fact, Facts } from '@/components/fact-list';
import { EmptyState, LoadError, RefreshError } from '@/components/load-state';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { CopyButton } from '@/features/satellites/components/copy-button';
import {
  fleetJoinTokensQueryOptions,
  fleetNodesQueryOptions,
  fleetStatusQueryOptions,
  useInitFleet,
  useJoinFleet,
  useLeaveFleet,
  useRotateJoinToken,
} from '@/data/fleet';
import { errorMessage } from '@/lib/request';
import { NodeCard } from './node-card';

function CreateFleetForm() {
  const init = useInitFleet();
  const [advertiseAddr, setAdvertiseAddr] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    init.mutate(
      { advertiseAddr: advertiseAddr.trim() },
      {
        onSuccess: () => toast({ title: 'Fleet created', description: 'This hub is its first manager.' }),
      },
    );
  }
  return (
    <Panel
      title="Create a fleet"
      icon={PlusCircle}
      description="This hub becomes the fleet's first manager; other hubs join it with a join command."
    >
      <form onSubmit={submit} className="grid gap-3" aria-label="Create a fleet">
        <div className="grid gap-1.5">
          <Label htmlFor="fleet-advertise">Address other hubs reach this one at</Label>
          <Input
            id="fleet-advertise"
            required
            value={advertiseAddr}
            placeholder="e.g. the hub's LAN address or eth0"
            spellCheck={false}
            onChange={(e) => setAdvertiseAddr(e.target.value)}
          />
          <p className="text-xs text-muted-foreground">
            An IP address or interface name, with an optional :port.
          </p>
        </div>
        {init.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(init.error)}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={init.isPending}>
            <PlusCircle aria-hidden="true" />
            {init.isPending ? 'Creating…' : 'Create the fleet'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function JoinFleetForm() {
  const join = useJoinFleet();
  const [remoteAddr, setRemoteAddr] = useState('');
  const [token, setToken] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    join.mutate(
      { remoteAddr: remoteAddr.trim(), token: token.trim() },
      { onSuccess: () => toast({ title: 'Joined the fleet' }) },
    );
  }
  return (
    <Panel
      title="Join a fleet"
      icon={UserPlus}
      description="Paste the address and token from the join command Nexus Control shows on a manager hub."
    >
      <form onSubmit={submit} className="grid gap-3" aria-label="Join a fleet">
        <div className="grid gap-1.5">
          <Label htmlFor="fleet-remote">Manager address</Label>
          <Input
            id="fleet-remote"
            required
            value={remoteAddr}
            placeholder="host:2377"
            spellCheck={false}
            onChange={(e) => setRemoteAddr(e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="fleet-token">Join token</Label>
          <Input
            id="fleet-token"
            required
            value={token}
            placeholder="SWMTKN-1-…"
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
            onChange={(e) => setToken(e.target.value)}
          />
        </div>
        {join.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(join.error)}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={join.isPending}>
            <UserPlus aria-hidden="true" />
            {join.isPending ? 'Joining…' : 'Join the fleet'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function JoinCommand({ role, command }: { role: SwarmRole; command: string }) {
  const rotate = useRotateJoinToken();
  const codeRef = useRef<HTMLElement>(null);
  const name = role === 'worker' ? 'worker' : 'manager';
  return (
    <div className="grid gap-2" data-testid={`join-command-${role}`}>
      <p className="text-sm font-medium">
        {role === 'worker' ? 'Add a worker' : 'Add a manager'}{' '}
        <span className="font-normal text-muted-foreground">
          {role === 'worker'
            ? '(runs tasks)'
            : '(also keeps the swarm state; an odd number of managers survives one loss)'}
        </span>
      </p>
      <div className="flex items-start gap-2">
        <code
          ref={codeRef}
          className="min-w-0 flex-1 overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs break-all"
        >
          {command}
        </code>
        <CopyButton text={command} label={`Copy the ${name} join command`} target={codeRef} />
      </div>
      <div>
        <ConfirmButton
          size="sm"
          variant="outline"
          disabled={rotate.isPending}
          question={`Rotate the ${name} token?`}
          description={`The current ${name} join command stops working at once; nodes already in the fleet stay.`}
          confirmLabel="Rotate"
          destructive
          onConfirm={() =>
            rotate.mutate(role, {
              onSuccess: () => toast({ title: `New ${name} join command` }),
              onError: (error) =>
                toast({
                  title: 'Could not rotate the token',
                  description: errorMessage(error),
                  variant: 'destructive',
                }),
            })
          }
        >
          <RotateCw aria-hidden="true" className={rotate.isPending ? 'animate-spin' : undefined} />
          Rotate the {name} token
        </ConfirmButton>
      </div>
    </div>
  );
}

function JoinCommands() {
  const tokens = useQuery(fleetJoinTokensQueryOptions());
  return (
    <Panel
      title="Join commands"
      icon={KeyRound}
      description="Run one on another hub (or paste its address and token in that hub's Nexus Control). Anyone with a token can join: keep it private."
    >
      {tokens.isPending ? (
        <Skeleton className="h-32" />
      ) : tokens.isLoadingError ? (
        <LoadError what="the join commands" query={tokens} />
      ) : (
        <div className="grid gap-4">
          <RefreshError what="the join commands" query={tokens} />
          <JoinCommand role="worker" command={tokens.data.worker.command} />
          <JoinCommand role="manager" command={tokens.data.manager.command} />
        </div>
      )}
    </Panel>
  );
}

function LeaveButton({ status }: { status: FleetStatus }) {
  const leave = useLeaveFleet();
  const manager = status.role === 'manager';
  return (
    <ConfirmButton
      variant="outline"
      disabled={leave.isPending}
      question="Leave the fleet?"
      description={
        manager
          ? 'This hub is a manager: it leaves by force. Its services stop here, and if it is the last manager the fleet and its services are gone.'
          : "This hub's tasks stop and move to the other nodes."
      }
      confirmLabel="Leave"
      destructive
      onConfirm={() =>
        leave.mutate(manager, {
          onSuccess: () => toast({ title: 'Left the fleet' }),
          onError: (error) =>
            toast({
              title: 'Could not leave the fleet',
              description: errorMessage(error),
              variant: 'destructive',
            }),
        })
      }
    >
      <LogOut aria-hidden="true" />
      Leave the fleet
    </ConfirmButton>
  );
}

function Nodes({ canEdit }: { canEdit: boolean }) {
  const nodes = useQuery(fleetNodesQueryOptions());
  if (nodes.isPending) {
    return (
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-64" />
        ))}
      </div>
    );
  }
  if (nodes.isLoadingError) return <LoadError what="the fleet's nodes" query={nodes} />;
  return (
    <div className="grid grid-cols-1 gap-4">
      <RefreshError what="the fleet's nodes" query={nodes} />
      {nodes.data.length === 0 ? (
        <EmptyState icon={Server} title="No nodes" />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {nodes.data.map((node) => (
            <NodeCard key={node.id} node={node} canEdit={canEdit} />
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * /nexus-control's fleet section (issue 24): outside a swarm, what a fleet is and (admins) how to
 * make or join one; inside, the nodes as cards and (admins on a manager) the join commands.
 */
export function FleetOverview() {
  const { isAdmin } = useAuth();
  const status = useQuery(fleetStatusQueryOptions());

  if (status.isPending) return <Skeleton className="h-40" aria-label="Loading the fleet" />;
  if (status.isLoadingError)
    return (
      <Panel title="Fleet" icon={Network}>
        <LoadError what="the fleet's state" query={status} />
      </Panel>
    );

  const fleet = status.data;
  if (fleet.state !== 'active') {
    return (
      <section data-testid="fleet" className="grid gap-4">
        <RefreshError what="the fleet's state" query={status} />
        <Panel
          title="Fleet"
          icon={Network}
          actions={
            <StatusBadge word={fleet.state === 'inactive' ? 'Not in a fleet' : fleet.state} tone="neutral" />
          }
        >
          <p className="text-sm text-muted-foreground">
            Several hubs can work as one fleet (a Docker Swarm): apps deployed to the fleet run on the node
            whose labels they ask for — Ollama on the Orin AGX, the voice services on an Orin Nano — and move
            when a node is drained. Independent hubs in separate homes stay on Multi-Nexus.
          </p>
          {fleet.error ? (
            <p role="alert" className="text-sm text-destructive">
              The engine says: {fleet.error}
            </p>
          ) : null}
          {!isAdmin ? (
            <p className="text-sm text-muted-foreground">An administrator can create a fleet or join one.</p>
          ) : null}
        </Panel>
        {isAdmin && fleet.state === 'inactive' ? (
          <div className="grid gap-4 lg:grid-cols-2">
            <CreateFleetForm />
            <JoinFleetForm />
          </div>
        ) : null}
        {isAdmin && fleet.state !== 'inactive' ? (
          <div>
            <LeaveButton status={fleet} />
          </div>
        ) : null}
      </section>
    );
  }

  const canManage = fleet.canManage;
  return (
    <section data-testid="fleet" className="grid gap-4">
      <RefreshError what="the fleet's state" query={status} />
      <Panel
        title="Fleet"
        icon={Network}
        actions={isAdmin ? <LeaveButton status={fleet} /> : undefined}
        description={
          canManage
            ? 'This hub manages the fleet: its nodes, their labels and the join commands.'
            : 'This hub is a worker of a fleet: manage the fleet from a manager hub.'
        }
      >
        <Facts className="sm:grid-cols-2">
          <Fact label="This hub">{fleet.role === 'manager' ? 'Manager' : 'Worker'}</Fact>
          {fleet.nodeAddr ? <Fact label="Address">{fleet.nodeAddr}</Fact> : null}
          {fleet.nodes !== null ? <Fact label="Nodes">{fleet.nodes}</Fact> : null}
          {fleet.managers !== null ? <Fact label="Managers">{fleet.managers}</Fact> : null}
        </Facts>
      </Panel>
      {isAdmin && canManage ? <JoinCommands /> : null}
      {canManage ? (
        <div className="grid gap-2">
          <h2 className="text-lg font-semibold">Nodes</h2>
          <Nodes canEdit={isAdmin} />
        </div>
      ) : null}
    </section>
  );
}
