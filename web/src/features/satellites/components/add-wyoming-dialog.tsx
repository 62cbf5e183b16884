import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { createWyomingSatelliteInputSchema, WYOMING_SATELLITE_DEFAULT_PORT } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
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
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useCreateWyomingSatellite } from '@/data/satellites';

type Field = 'name' | 'host' | 'port';

/**
 * "Add Wyoming satellite": where a wyoming-satellite listens (host and port, 10700 by default). The
 * hub connects to it as Home Assistant's Wyoming integration does, and takes its name from the
 * satellite's own info unless one is given here.
 */
export function AddWyomingSatelliteDialog() {
  const create = useCreateWyomingSatellite();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [host, setHost] = useState('');
  const [port, setPort] = useState(String(WYOMING_SATELLITE_DEFAULT_PORT));
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [serverProblem, setServerProblem] = useState<string | null>(null);
  const id = useId();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      create.reset();
      setName('');
      setHost('');
      setPort(String(WYOMING_SATELLITE_DEFAULT_PORT));
      setProblems({});
      setServerProblem(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setServerProblem(null);
    const trimmedPort = port.trim();
    const parsed = createWyomingSatelliteInputSchema.safeParse({
      name: name.trim() || undefined,
      host,
      // An empty port means the default; anything else must be a whole number, which zod checks.
      port: trimmedPort === '' ? undefined : /^\d+$/.test(trimmedPort) ? Number(trimmedPort) : NaN,
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= field === 'port' ? 'Give a port number between 1 and 65535' : issue.message;
      }
      setProblems(found);
      return;
    }
    setProblems({});
    create.mutate(parsed.data, {
      onSuccess: (satellite) => {
        onOpenChange(false);
        toast({
          title: 'Wyoming satellite added',
          description: `${satellite.name}: the hub is connecting to it.`,
        });
      },
      onError: (error) => setServerProblem(errorMessage(error) ?? 'The satellite could not be added'),
    });
  }

  const describedBy = (field: Field, hint?: string) =>
    [hint, problems[field] ? `${id}-${field}-problem` : undefined].filter(Boolean).join(' ') || undefined;
  const problem = (field: Field) =>
    problems[field] ? (
      <p id={`${id}-${field}-problem`} className="text-sm text-destructive">
        {problems[field]}
      </p>
    ) : null;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" /> Add Wyoming satellite
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Add Wyoming satellite</DialogTitle>
            <DialogDescription>
              A satellite running wyoming-satellite, e.g. on a Raspberry Pi. The hub connects to it at this
              address and keeps reconnecting while it is away.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>Name (optional)</Label>
            <Input
              id={`${id}-name`}
              maxLength={80}
              placeholder="The name the satellite gives"
              value={name}
              aria-invalid={problems.name ? true : undefined}
              aria-describedby={describedBy('name')}
              onChange={(event) => setName(event.target.value)}
            />
            {problem('name')}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-host`}>Host</Label>
            <Input
              id={`${id}-host`}
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="e.g. kitchen-pi.local or 192.168.1.40"
              value={host}
              aria-invalid={problems.host ? true : undefined}
              aria-describedby={describedBy('host')}
              onChange={(event) => setHost(event.target.value)}
            />
            {problem('host')}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-port`}>Port</Label>
            <Input
              id={`${id}-port`}
              inputMode="numeric"
              className="w-32"
              value={port}
              aria-invalid={problems.port ? true : undefined}
              aria-describedby={describedBy('port', `${id}-port-hint`)}
              onChange={(event) => setPort(event.target.value)}
            />
            <p id={`${id}-port-hint`} className="text-xs text-muted-foreground">
              wyoming-satellite listens on {WYOMING_SATELLITE_DEFAULT_PORT} unless started with another --uri.
            </p>
            {problem('port')}
          </div>
          {serverProblem ? (
            <p role="alert" className="text-sm text-destructive">
              {serverProblem}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Adding...' : 'Add'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
