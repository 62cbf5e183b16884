import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** The name and room of a satellite, the agent's refusal if any, and the submit button: adding and editing share them. */
export function SatelliteFields({
  id,
  name,
  room,
  onName,
  onRoom,
  problem,
  busy,
  submitLabel,
  busyLabel,
}: {
  id: string;
  name: string;
  room: string;
  onName: (name: string) => void;
  onRoom: (room: string) => void;
  problem: string | null;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
}) {
  return (
    <>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          required
          maxLength={80}
          placeholder="e.g. Kitchen"
          value={name}
          onChange={(event) => onName(event.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-room`}>Room (optional)</Label>
        <Input
          id={`${id}-room`}
          maxLength={120}
          value={room}
          onChange={(event) => onRoom(event.target.value)}
        />
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="submit" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
