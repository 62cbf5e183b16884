import { KeyRound, Pencil, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { updateSatelliteInputSchema, type Satellite, type SatelliteWithToken } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useDeleteSatellite, useRotateSatelliteToken, useUpdateSatellite } from '@/data/satellites';
import { SatelliteFields } from './satellite-fields';

/** Removes a satellite the hub owns (a Wyoming or Nexus-API one) after asking; says what follows. */
export function RemoveSatelliteButton({
  satellite,
  consequence,
}: {
  satellite: Satellite;
  consequence: string;
}) {
  const remove = useDeleteSatellite();
  return (
    <ConfirmButton
      destructive
      variant="ghost"
      size="icon"
      aria-label={`Remove ${satellite.name}`}
      disabled={remove.isPending}
      question={`Remove ${satellite.name}?`}
      description={consequence}
      confirmLabel="Remove"
      onConfirm={() =>
        remove.mutate(satellite.id, {
          onSuccess: () => toast({ title: 'Satellite removed', description: satellite.name }),
          onError: (error) =>
            toast({
              title: `Could not remove ${satellite.name}`,
              description: errorMessage(error),
              variant: 'destructive',
            }),
        })
      }
    >
      <Trash2 aria-hidden="true" />
    </ConfirmButton>
  );
}

/** An admin's controls for one row: rename, a new token, remove. */
export function SatelliteActions({
  satellite,
  onTokenIssued,
}: {
  satellite: Satellite;
  /** Receives the new token, which the page shows in a dialog of its own. */
  onTokenIssued: (issued: SatelliteWithToken) => void;
}) {
  const rotate = useRotateSatelliteToken();
  return (
    <div className="flex items-center justify-end gap-1">
      <EditSatelliteDialog satellite={satellite} />
      <ConfirmButton
        variant="outline"
        size="sm"
        aria-label={`New token for ${satellite.name}`}
        disabled={rotate.isPending}
        question={`A new token for ${satellite.name}?`}
        description="The current token stops working at once: until the satellite has the new one, its heartbeats, voice clips and samples are refused, and a minute later it shows offline."
        confirmLabel="Issue a new token"
        onConfirm={() =>
          rotate.mutate(satellite.id, {
            onSuccess: onTokenIssued,
            onError: (error) =>
              toast({
                title: `No new token for ${satellite.name}`,
                description: errorMessage(error),
                variant: 'destructive',
              }),
          })
        }
      >
        <KeyRound aria-hidden="true" /> New token
      </ConfirmButton>
      <RemoveSatelliteButton
        satellite={satellite}
        consequence="Its token stops working and it leaves the list. To use the device again, add it anew and give it the new token."
      />
    </div>
  );
}

function EditSatelliteDialog({ satellite }: { satellite: Satellite }) {
  const update = useUpdateSatellite(satellite.id);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(satellite.name);
  const [room, setRoom] = useState(satellite.room ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      // The list refreshes behind the dialog; it opens on what the satellite is called now.
      setName(satellite.name);
      setRoom(satellite.room ?? '');
      setProblem(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = updateSatelliteInputSchema.safeParse({ name, room: room.trim() || null });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check the name');
      return;
    }
    setProblem(null);
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setOpen(false);
        toast({ title: 'Satellite saved', description: saved.name });
      },
      onError: (error) => setProblem(errorMessage(error) ?? 'The satellite could not be saved'),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Edit ${satellite.name}`}>
          <Pencil aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Edit {satellite.name}</DialogTitle>
            <DialogDescription>
              Its name and room here; the device and its token stay as they are.
            </DialogDescription>
          </DialogHeader>
          <SatelliteFields
            id={id}
            name={name}
            room={room}
            onName={setName}
            onRoom={setRoom}
            problem={problem}
            busy={update.isPending}
            submitLabel="Save"
            busyLabel="Saving..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
