import { useState, type FormEvent } from 'react';
import { Crown, Plus, Server, Tags, Trash2 } from 'lucide-react';
import type { FleetNode, NodeAvailability } from '@nexus/agent/contract';
import { Fact, Facts } from '@/components/fact-list';
import { StatusBadge } from '@/components/status-badge';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { useUpdateFleetNode } from '@/data/fleet';
import { errorMessage } from '@/lib/request';
import {
  AVAILABILITY_WORDS,
  LABEL_PRESETS,
  availabilityTone,
  labelsToRows,
  memoryWords,
  nodeStatusTone,
  rowsToLabels,
  type LabelRow,
} from '../fleet-logic';

/** A key=value editor for a node's labels; saving replaces them as a whole (as the engine does). */
function LabelEditor({ node, onClose }: { node: FleetNode; onClose: () => void }) {
  const update = useUpdateFleetNode();
  const [rows, setRows] = useState<LabelRow[]>(() => {
    const existing = labelsToRows(node.labels);
    return existing.length > 0 ? existing : [{ key: '', value: '' }];
  });
  const [problem, setProblem] = useState<string | null>(null);
  const setRow = (index: number, row: Partial<LabelRow>) =>
    setRows((all) => all.map((r, i) => (i === index ? { ...r, ...row } : r)));

  function addPreset(key: string) {
    setRows((all) => {
      if (all.some((r) => r.key.trim() === key)) return all;
      const blank = all.findIndex((r) => r.key.trim() === '' && r.value.trim() === '');
      if (blank >= 0) return all.map((r, i) => (i === blank ? { key, value: '' } : r));
      return [...all, { key, value: '' }];
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = rowsToLabels(rows);
    if ('error' in result) {
      setProblem(result.error);
      return;
    }
    setProblem(null);
    update.mutate(
      { id: node.id, update: { labels: result.labels } },
      {
        onSuccess: () => {
          toast({ title: `Labels of ${node.hostname} saved` });
          onClose();
        },
        onError: (error) => setProblem(errorMessage(error) ?? 'The labels could not be saved'),
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Labels of {node.hostname}</DialogTitle>
          <DialogDescription>
            Stacks deployed to the fleet can ask for a label, e.g. node.labels.nexus.role==voice, to run only
            on the nodes that carry it.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" aria-label={`Labels of ${node.hostname}`}>
          <ul className="grid gap-2">
            {rows.map((row, index) => (
              <li key={index} className="flex items-end gap-2">
                <div className="grid flex-1 gap-1">
                  <Label htmlFor={`label-key-${index}`} className="text-xs">
                    Key
                  </Label>
                  <Input
                    id={`label-key-${index}`}
                    value={row.key}
                    placeholder="nexus.role"
                    spellCheck={false}
                    onChange={(e) => setRow(index, { key: e.target.value })}
                  />
                </div>
                <span aria-hidden="true" className="pb-2 text-muted-foreground">
                  =
                </span>
                <div className="grid flex-1 gap-1">
                  <Label htmlFor={`label-value-${index}`} className="text-xs">
                    Value
                  </Label>
                  <Input
                    id={`label-value-${index}`}
                    value={row.value}
                    placeholder="voice"
                    spellCheck={false}
                    onChange={(e) => setRow(index, { value: e.target.value })}
                  />
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove label ${row.key || index + 1}`}
                  onClick={() => setRows((all) => all.filter((_, i) => i !== index))}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setRows((all) => [...all, { key: '', value: '' }])}
            >
              <Plus aria-hidden="true" /> Add a label
            </Button>
            {LABEL_PRESETS.map((key) => (
              <Button key={key} type="button" variant="secondary" size="sm" onClick={() => addPreset(key)}>
                <Plus aria-hidden="true" /> {key}
              </Button>
            ))}
          </div>
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save labels'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Active, pause or drain; drain asks first, since the node's tasks move to other nodes. */
function AvailabilityControl({ node }: { node: FleetNode }) {
  const update = useUpdateFleetNode();
  const [confirmDrain, setConfirmDrain] = useState(false);
  const id = `availability-${node.id}`;

  function apply(availability: NodeAvailability) {
    update.mutate(
      { id: node.id, update: { availability } },
      {
        onSuccess: () => toast({ title: `${node.hostname}: ${AVAILABILITY_WORDS[availability]}` }),
        onError: (error) =>
          toast({
            title: `Could not change ${node.hostname}`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Availability</Label>
      <Select
        value={node.availability}
        disabled={update.isPending}
        onValueChange={(value) => {
          const next = value as NodeAvailability;
          if (next === node.availability) return;
          if (next === 'drain') setConfirmDrain(true);
          else apply(next);
        }}
      >
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {(Object.keys(AVAILABILITY_WORDS) as NodeAvailability[]).map((a) => (
            <SelectItem key={a} value={a}>
              {AVAILABILITY_WORDS[a]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <AlertDialog open={confirmDrain} onOpenChange={setConfirmDrain}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Drain {node.hostname}?</AlertDialogTitle>
            <AlertDialogDescription>
              Its tasks stop here and move to other nodes; services placed only on this node wait until it is
              active again.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={() => apply('drain')}>
              Drain
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/** One node of the swarm: what it is, how it is, its labels; admins change labels and availability. */
export function NodeCard({ node, canEdit }: { node: FleetNode; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const labels = Object.entries(node.labels).sort(([a], [b]) => a.localeCompare(b));
  const nexus = node.nexus;
  return (
    <Card role="region" aria-label={`Node ${node.hostname}`} data-testid={`fleet-node-${node.hostname}`}>
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-base">
            <Server aria-hidden="true" className="size-4 text-primary" />
            {node.hostname}
          </CardTitle>
          <StatusBadge
            word={node.status}
            tone={nodeStatusTone(node.status)}
            title={node.statusMessage ?? undefined}
          />
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant="secondary">{node.role === 'manager' ? 'Manager' : 'Worker'}</Badge>
          {node.leader ? (
            <Badge variant="outline">
              <Crown aria-hidden="true" /> Leader
            </Badge>
          ) : null}
          {node.self ? <Badge variant="outline">This hub</Badge> : null}
          <StatusBadge word={node.availability} tone={availabilityTone(node.availability)} />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Facts>
          <Fact label="CPUs">{node.cpus ?? 'unknown'}</Fact>
          <Fact label="Memory">{memoryWords(node.memoryBytes)}</Fact>
          <Fact label="Engine">{node.engineVersion ?? 'unknown'}</Fact>
          {node.addr ? <Fact label="Address">{node.addr}</Fact> : null}
          {nexus?.jetsonModel ? <Fact label="Jetson">{nexus.jetsonModel}</Fact> : null}
          {nexus?.cpuPercent != null ? <Fact label="CPU load">{Math.round(nexus.cpuPercent)} %</Fact> : null}
          {nexus?.memoryPercent != null ? (
            <Fact label="Memory used">{Math.round(nexus.memoryPercent)} %</Fact>
          ) : null}
          {nexus && nexus.temperatures.length > 0 ? (
            <Fact label="Temperatures">
              {nexus.temperatures.map((t) => `${t.zone} ${Math.round(t.celsius)} °C`).join(', ')}
            </Fact>
          ) : null}
        </Facts>
        {nexus === null ? (
          <p className="text-xs text-muted-foreground">
            No Nexus agent answers for this node: no board readings.
          </p>
        ) : null}
        <div className="grid gap-1.5">
          <p className="flex items-center gap-1 text-sm text-muted-foreground">
            <Tags aria-hidden="true" className="size-4" /> Labels
          </p>
          {labels.length > 0 ? (
            <ul className="flex flex-wrap gap-1.5" aria-label={`Labels of ${node.hostname}`}>
              {labels.map(([key, value]) => (
                <li key={key}>
                  <Badge variant="outline" className="font-mono text-xs">
                    {value === '' ? key : `${key}=${value}`}
                  </Badge>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">
              No labels.{canEdit ? ' Add nexus.role or nexus.gpu to place apps on this node.' : ''}
            </p>
          )}
        </div>
        {canEdit ? (
          <div className="grid gap-3">
            <AvailabilityControl node={node} />
            <div>
              <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                <Tags aria-hidden="true" /> Edit labels
                <span className="sr-only"> of {node.hostname}</span>
              </Button>
            </div>
          </div>
        ) : null}
      </CardContent>
      {editing ? <LabelEditor node={node} onClose={() => setEditing(false)} /> : null}
    </Card>
  );
}
