import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import type { StackTarget } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { fleetNodesQueryOptions, fleetStatusQueryOptions } from '@/data/fleet';
import { constraintOptions, fleetTarget, isConstraint, nodesMatching } from '../fleet-logic';

export interface DeployPlacement {
  target: StackTarget;
  /** Written into every service's deploy.placement.constraints before the compose is sent. */
  constraints: string[];
}

export const HUB_PLACEMENT: DeployPlacement = { target: 'hub', constraints: [] };

function ConstraintPicker({
  constraints,
  onChange,
}: {
  constraints: string[];
  onChange: (constraints: string[]) => void;
}) {
  const nodes = useQuery(fleetNodesQueryOptions());
  const [custom, setCustom] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const baseId = useId();
  if (nodes.isPending) return <Skeleton className="h-24" />;
  if (nodes.isLoadingError)
    return (
      <p role="alert" className="text-sm text-destructive">
        The fleet&apos;s nodes could not be read, so no placement can be offered; the engine places the stack
        on any node.
      </p>
    );
  const offered = constraintOptions(nodes.data);
  const extra = constraints.filter((c) => !offered.includes(c));
  const matching = nodesMatching(nodes.data, constraints);
  const toggle = (c: string, on: boolean) =>
    onChange(on ? [...constraints, c] : constraints.filter((x) => x !== c));

  function addCustom() {
    const text = custom.trim();
    if (!isConstraint(text)) {
      setProblem('A constraint looks like node.labels.nexus.role==voice or node.role!=manager');
      return;
    }
    setProblem(null);
    if (!constraints.includes(text)) onChange([...constraints, text]);
    setCustom('');
  }

  return (
    <fieldset className="grid gap-2 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Place on nodes where (all must hold)</legend>
      <RefreshError what="the fleet's nodes" query={nodes} />
      <ul className="grid gap-1.5 sm:grid-cols-2">
        {offered.map((c, i) => (
          <li key={c} className="flex items-center gap-2">
            <Checkbox
              id={`${baseId}-${i}`}
              checked={constraints.includes(c)}
              onCheckedChange={(checked) => toggle(c, checked === true)}
            />
            <Label htmlFor={`${baseId}-${i}`} className="font-mono text-xs font-normal break-all">
              {c}
            </Label>
          </li>
        ))}
      </ul>
      {extra.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Constraints you added">
          {extra.map((c) => (
            <li key={c}>
              <Badge variant="outline" className="gap-1 font-mono text-xs">
                {c}
                <button
                  type="button"
                  className="rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  aria-label={`Remove ${c}`}
                  onClick={() => toggle(c, false)}
                >
                  <X aria-hidden="true" className="size-3" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-end gap-2">
        <div className="grid flex-1 gap-1">
          <Label htmlFor={`${baseId}-custom`} className="text-xs">
            Another constraint
          </Label>
          <Input
            id={`${baseId}-custom`}
            value={custom}
            placeholder="node.labels.nexus.gpu!=none"
            spellCheck={false}
            className="font-mono text-xs"
            onChange={(e) => setCustom(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addCustom();
              }
            }}
          />
        </div>
        <Button type="button" variant="outline" size="sm" onClick={addCustom}>
          <Plus aria-hidden="true" /> Add
        </Button>
      </div>
      {problem ? (
        <p role="alert" className="text-xs text-destructive">
          {problem}
        </p>
      ) : null}
      <p
        role="status"
        className={matching.length === 0 ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}
      >
        {constraints.length === 0
          ? `Any of the ${nodes.data.length} nodes.`
          : matching.length === 0
            ? 'No node matches these today: the tasks wait until a node gets the label.'
            : `${matching.length} of ${nodes.data.length} nodes match: ${matching.map((n) => n.hostname).join(', ')}.`}
      </p>
    </fieldset>
  );
}

/**
 * Where a deployment goes: this hub (containers) or the fleet (swarm services), and for the fleet
 * the placement constraints. The fleet choice is disabled, with the reason, outside a swarm.
 */
export function DeployTarget({
  value,
  onChange,
  disabled = false,
}: {
  value: DeployPlacement;
  onChange: (value: DeployPlacement) => void;
  disabled?: boolean;
}) {
  const status = useQuery(fleetStatusQueryOptions());
  const fleet = fleetTarget(status.data);
  const name = useId();
  const reasonId = `${name}-reason`;
  const choose = (target: StackTarget) =>
    onChange({ target, constraints: target === 'hub' ? [] : value.constraints });
  const fleetChosen = value.target === 'fleet' && fleet.available;
  // The swarm went away (left on another tab) while "The fleet" was chosen: back to this hub, so
  // what is sent is what the radio shows.
  const lost = value.target === 'fleet' && status.data !== undefined && !fleet.available;
  useEffect(() => {
    if (lost) onChange(HUB_PLACEMENT);
  }, [lost, onChange]);
  return (
    <div className="grid gap-3">
      <fieldset className="grid gap-2" disabled={disabled}>
        <legend className="mb-1 text-sm font-medium">Deploy to</legend>
        <div className="flex flex-wrap gap-4">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value="hub"
              className="size-4 accent-primary"
              checked={!fleetChosen}
              onChange={() => choose('hub')}
            />
            This hub
          </label>
          <label
            className={
              fleet.available
                ? 'flex items-center gap-2 text-sm'
                : 'flex items-center gap-2 text-sm text-muted-foreground'
            }
          >
            <input
              type="radio"
              name={name}
              value="fleet"
              className="size-4 accent-primary"
              checked={fleetChosen}
              disabled={!fleet.available}
              aria-describedby={fleet.reason ? reasonId : undefined}
              onChange={() => choose('fleet')}
            />
            The fleet
          </label>
        </div>
        {fleet.reason ? (
          <p id={reasonId} className="text-xs text-muted-foreground">
            {fleet.reason}
          </p>
        ) : fleetChosen ? (
          <p className="text-xs text-muted-foreground">
            As swarm services (what docker stack deploy makes): deploy.replicas, placement, resources and
            update settings apply.
          </p>
        ) : null}
      </fieldset>
      {fleetChosen ? (
        <ConstraintPicker
          constraints={value.constraints}
          onChange={(constraints) => onChange({ target: 'fleet', constraints })}
        />
      ) : null}
    </div>
  );
}
