import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { createSatelliteInputSchema } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { errorMessage } from '@/lib/request';
import { useCreateSatellite } from '@/data/satellites';
import { TokenReveal } from './token-reveal';
import { SatelliteFields } from './satellite-fields';

/**
 * "Add Nexus satellite": a custom device that speaks the hub's own token-and-heartbeat API. A name
 * (and a room), then the new satellite's token in the same dialog.
 */
export function AddSatelliteDialog() {
  const create = useCreateSatellite();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [room, setRoom] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const created = create.data;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The next opening starts with an empty form, not with the last satellite's token.
      create.reset();
      setName('');
      setRoom('');
      setProblem(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createSatelliteInputSchema.safeParse({ name, room: room.trim() || null });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check the name');
      return;
    }
    setProblem(null);
    create.mutate(parsed.data, {
      onError: (error) => setProblem(errorMessage(error) ?? 'The satellite could not be added'),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" /> Add Nexus satellite
        </Button>
      </DialogTrigger>
      <DialogContent
        className={created ? 'max-w-2xl' : undefined}
        // The token is never shown again: a stray click beside the dialog must not throw it away.
        onInteractOutside={(event) => {
          if (created) event.preventDefault();
        }}
        hideCloseButton={Boolean(created)}
      >
        {created ? (
          <TokenReveal issued={created} onDone={() => onOpenChange(false)} />
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Add Nexus satellite</DialogTitle>
              <DialogDescription>
                A custom device that checks in with the Nexus satellite API (a token and a heartbeat). A
                Satellite1 or Voice PE is adopted in Home Assistant instead. The next step shows its token,
                once.
              </DialogDescription>
            </DialogHeader>
            <SatelliteFields
              id={id}
              name={name}
              room={room}
              onName={setName}
              onRoom={setRoom}
              problem={problem}
              busy={create.isPending}
              submitLabel="Add"
              busyLabel="Adding..."
            />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
