import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  ArchiveRestore,
  CalendarClock,
  CheckCircle2,
  DatabaseBackup,
  Download,
  HardDrive,
  History,
  Trash2,
  Undo2,
} from 'lucide-react';
import type { BackupList, BackupScheduleInput } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
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
import { Panel } from '@/components/ui/panel';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { ReauthProvider } from '@/features/account';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import {
  BACKUP_PATHS,
  backupDownloadUrl,
  useBackups,
  useConfirmRestore,
  useCreateBackup,
  useDeleteBackup,
  useRevertRestore,
  useSaveSchedule,
} from '@/data/backups';
import { TRIGGER_WORDS, formatHour, formatWhen, newestFirst } from '../format';
import { NewPassphraseFields, passphraseProblem, type PassphraseValue } from './passphrase-fields';
import { RestartWait, RestoreForm } from './restore-form';

const EMPTY_PASSPHRASE: PassphraseValue = { passphrase: '', confirm: '' };

function BackUpNowDialog() {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(EMPTY_PASSPHRASE);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateBackup();
  const close = () => {
    setOpen(false);
    setValue(EMPTY_PASSPHRASE);
    setProblem(null);
    create.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = passphraseProblem(value);
    setProblem(wrong);
    if (wrong) return;
    create.mutate(value.passphrase, {
      onSuccess: (made) => {
        toast({
          title: 'Backup made',
          description: `${formatWhen(made.createdAt)}, ${formatBytes(made.size)}`,
        });
        close();
      },
      onError: (error) => setProblem(errorMessage(error) ?? 'The backup failed'),
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setOpen(true);
        else if (!create.isPending) close();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <DatabaseBackup aria-hidden="true" />
          Back up now
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Back up this hub</DialogTitle>
          <DialogDescription>
            The database, secret key, flows, wake-word samples and settings, sealed with a passphrase you
            choose, into the backup folder.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" aria-label="Back up now" noValidate>
          <NewPassphraseFields value={value} onChange={setValue} disabled={create.isPending} />
          {create.isPending ? (
            <div role="status" aria-live="polite" className="flex items-center gap-2 text-sm">
              <Spinner className="size-4 text-primary" />
              Backing up… the hub keeps running meanwhile; a large hub takes a minute.
            </div>
          ) : null}
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <DialogFooter className="gap-2">
            <Button type="button" variant="ghost" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? <Spinner className="size-4" /> : null}
              {create.isPending ? 'Backing up…' : 'Make the backup'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function LastRun({ run }: { run: BackupList['lastRun'] }) {
  if (!run) return <p className="text-sm text-muted-foreground">No backup has run on this hub yet.</p>;
  if (run.ok) {
    return (
      <p className="flex items-center gap-1.5 text-sm" data-testid="backup-last-run">
        <CheckCircle2 aria-hidden="true" className="size-4 text-success" />
        Last backup {formatWhen(run.at)} ({TRIGGER_WORDS[run.trigger].toLowerCase()}): succeeded.
      </p>
    );
  }
  return (
    <Alert variant="destructive" data-testid="backup-last-run">
      <AlertTitle>
        The last backup failed ({TRIGGER_WORDS[run.trigger].toLowerCase()}, {formatWhen(run.at)})
      </AlertTitle>
      <AlertDescription>{run.error ?? 'No reason was given.'}</AlertDescription>
    </Alert>
  );
}

function BackupRows({ backups }: { backups: BackupList['backups'] }) {
  const remove = useDeleteBackup();
  if (backups.length === 0) {
    return (
      <div className="grid justify-items-start gap-1 rounded-lg border border-dashed p-6 text-sm">
        <p className="font-medium">No backups yet</p>
        <p className="text-muted-foreground">
          Press &ldquo;Back up now&rdquo; for a first backup, and turn on the daily schedule below so there is
          always a recent one. Keep a copy off the hub too: download it, or point the schedule at a USB disk.
        </p>
      </div>
    );
  }
  return (
    <Table label="Backups table">
      <TableHeader>
        <TableRow>
          <TableHead>Made</TableHead>
          <TableHead className="text-right">Size</TableHead>
          <TableHead>How</TableHead>
          <TableHead>Hub</TableHead>
          <TableHead>Folder</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {newestFirst(backups).map((b) => (
          <TableRow key={b.id} data-backup={b.id}>
            <TableCell className="font-medium whitespace-nowrap">{formatWhen(b.createdAt)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatBytes(b.size)}</TableCell>
            <TableCell>
              <Badge variant={b.trigger === 'manual' ? 'secondary' : 'outline'}>
                {TRIGGER_WORDS[b.trigger]}
              </Badge>
            </TableCell>
            <TableCell>
              {b.hubName} <span className="text-xs text-muted-foreground">v{b.appVersion}</span>
            </TableCell>
            <TableCell className="max-w-56 truncate font-mono text-xs" title={b.directory}>
              {b.directory}
            </TableCell>
            <TableCell className="text-right whitespace-nowrap">
              <Button asChild variant="ghost" size="sm">
                <a
                  href={backupDownloadUrl(b.id)}
                  download
                  aria-label={`Download the backup of ${formatWhen(b.createdAt)}`}
                >
                  <Download aria-hidden="true" />
                  Download
                </a>
              </Button>
              <ConfirmButton
                variant="ghost"
                size="sm"
                className="text-destructive"
                aria-label={`Delete the backup of ${formatWhen(b.createdAt)}`}
                question="Delete this backup?"
                description={`The backup of ${formatWhen(b.createdAt)} (${formatBytes(b.size)}) is removed from ${b.directory}. This cannot be undone.`}
                confirmLabel="Delete"
                destructive
                disabled={remove.isPending && remove.variables === b.id}
                onConfirm={() =>
                  remove.mutate(b.id, {
                    onSuccess: () => toast({ title: 'Backup deleted' }),
                    onError: (error) =>
                      toast({
                        title: 'The backup was not deleted',
                        description: errorMessage(error),
                        variant: 'destructive',
                      }),
                  })
                }
              >
                <Trash2 aria-hidden="true" />
                Delete
              </ConfirmButton>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

function ScheduleForm({ data }: { data: BackupList }) {
  const id = useId();
  const { schedule, destinations } = data;
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [hour, setHour] = useState(schedule.hour);
  const [keep, setKeep] = useState(String(schedule.keep));
  const [directory, setDirectory] = useState(schedule.directory);
  const [changingPassphrase, setChangingPassphrase] = useState(!schedule.hasPassphrase);
  const [passphrase, setPassphrase] = useState(EMPTY_PASSPHRASE);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSchedule();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const keepCount = Number(keep);
    const dir = directory.trim();
    const typed = passphrase.passphrase !== '' || passphrase.confirm !== '';
    const wrong =
      !Number.isInteger(keepCount) || keepCount < 1 || keepCount > 365
        ? 'Keep between 1 and 365 backups.'
        : !dir.startsWith('/')
          ? 'The folder must be an absolute path, such as /media/usb/nexus-backups.'
          : typed
            ? passphraseProblem(passphrase)
            : enabled && !schedule.hasPassphrase
              ? 'Scheduled backups need a passphrase: set one below.'
              : null;
    setProblem(wrong);
    if (wrong) return;
    const input: BackupScheduleInput = { enabled, hour, keep: keepCount, directory: dir };
    if (typed) input.passphrase = passphrase.passphrase;
    save.mutate(input, {
      onSuccess: () => {
        setPassphrase(EMPTY_PASSPHRASE);
        toast({
          title: 'Schedule saved',
          description: enabled
            ? `Daily at ${formatHour(hour)}, keeping ${keepCount}`
            : 'Scheduled backups are off',
        });
      },
      onError: (error) => setProblem(errorMessage(error) ?? 'The schedule was not saved'),
    });
  };

  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Backup schedule" noValidate>
      {!schedule.hasPassphrase ? (
        <Alert variant="warning">
          <AlertTitle>No passphrase stored: scheduled backups cannot run</AlertTitle>
          <AlertDescription>Set the passphrase the daily backups are sealed with, below.</AlertDescription>
        </Alert>
      ) : null}
      <div className="flex items-center gap-3">
        <Switch id={`${id}-enabled`} checked={enabled} onCheckedChange={setEnabled} />
        <Label htmlFor={`${id}-enabled`}>Back up every day</Label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-hour`}>At</Label>
          <Select value={String(hour)} onValueChange={(value) => setHour(Number(value))}>
            <SelectTrigger id={`${id}-hour`} aria-label="Hour of the daily backup">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {HOURS.map((h) => (
                <SelectItem key={h} value={String(h)}>
                  {formatHour(h)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-keep`}>Scheduled backups to keep</Label>
          <Input
            id={`${id}-keep`}
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            value={keep}
            onChange={(event) => setKeep(event.target.value)}
          />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-directory`}>Folder</Label>
        <Input
          id={`${id}-directory`}
          className="font-mono"
          value={directory}
          aria-describedby={`${id}-directory-hint`}
          onChange={(event) => setDirectory(event.target.value)}
        />
        <p id={`${id}-directory-hint`} className="text-xs text-muted-foreground">
          A folder on the hub, or a USB disk&apos;s mount point so a copy survives the hub&apos;s own disk.
        </p>
        {destinations.length > 0 ? (
          <ul className="flex flex-wrap gap-2" aria-label="USB disks and folders found">
            {destinations.map((d) => (
              <li key={d.path} className="max-w-full">
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  // A long mount path wraps on a phone instead of widening the page (issue 21).
                  className="h-auto max-w-full flex-wrap justify-start py-1 text-left whitespace-normal"
                  aria-pressed={directory.trim() === d.path}
                  onClick={() => setDirectory(d.path)}
                >
                  <HardDrive aria-hidden="true" />
                  <span className="font-mono break-all">{d.path}</span>
                  <span className="text-muted-foreground">
                    {d.freeBytes === null ? 'free space unknown' : `${formatBytes(d.freeBytes)} free`}
                  </span>
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted-foreground">No USB disk found under /media or /mnt.</p>
        )}
      </div>
      {changingPassphrase ? (
        <div className="grid gap-2">
          <p className="text-sm font-medium">
            {schedule.hasPassphrase
              ? 'New passphrase for scheduled backups'
              : 'Passphrase for scheduled backups'}
          </p>
          <NewPassphraseFields
            value={passphrase}
            onChange={setPassphrase}
            label="Scheduled backups' passphrase"
            disabled={save.isPending}
          />
          {schedule.hasPassphrase ? (
            <div>
              <Button
                type="button"
                variant="link"
                className="px-0"
                onClick={() => {
                  setChangingPassphrase(false);
                  setPassphrase(EMPTY_PASSPHRASE);
                }}
              >
                Keep the stored passphrase
              </Button>
            </div>
          ) : null}
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span className="flex items-center gap-1.5">
            <CheckCircle2 aria-hidden="true" className="size-4 text-success" />A passphrase is stored for
            scheduled backups.
          </span>
          <Button type="button" variant="outline" size="sm" onClick={() => setChangingPassphrase(true)}>
            Change the passphrase
          </Button>
        </div>
      )}
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner className="size-4" /> : null}
          Save the schedule
        </Button>
      </div>
    </form>
  );
}

function PendingRestoreBanner({ pending }: { pending: NonNullable<BackupList['pendingRestore']> }) {
  const keep = useConfirmRestore();
  const revert = useRevertRestore();
  const [error, setError] = useState<string | null>(null);
  if (revert.isSuccess) {
    return (
      <RestartWait>
        The hub is going back to the data it had before the restore. You will sign in again.
      </RestartWait>
    );
  }
  return (
    <Alert variant="warning" data-testid="pending-restore">
      <ArchiveRestore aria-hidden="true" />
      <AlertTitle>
        Restored from the backup of {formatWhen(pending.backupCreatedAt)} on {pending.hubName}
      </AlertTitle>
      <AlertDescription>
        <p>
          Check that everything is there, then keep the restored data. Until then you can go back to what the
          hub had before the restore ({formatWhen(pending.restoredAt)}).
        </p>
        {error ? (
          <p role="alert" className="mt-2 text-destructive">
            {error}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            size="sm"
            disabled={keep.isPending || revert.isPending}
            onClick={() => {
              setError(null);
              keep.mutate(undefined, {
                onSuccess: () => toast({ title: 'Restored data kept' }),
                onError: (e) => setError(errorMessage(e) ?? 'That did not work'),
              });
            }}
          >
            <CheckCircle2 aria-hidden="true" />
            Keep restored data
          </Button>
          <ConfirmButton
            size="sm"
            variant="outline"
            disabled={keep.isPending || revert.isPending}
            question="Go back to the data from before the restore?"
            description="The restored data is set aside and the hub restarts with what it had before the restore. Everyone signs in again."
            confirmLabel="Go back and restart"
            destructive
            onConfirm={() => {
              setError(null);
              revert.mutate(undefined, { onError: (e) => setError(errorMessage(e) ?? 'That did not work') });
            }}
          >
            <Undo2 aria-hidden="true" />
            Go back
          </ConfirmButton>
        </div>
      </AlertDescription>
    </Alert>
  );
}

function Backups() {
  const list = useBackups();
  const data = list.data;
  const top = useRef<HTMLDivElement>(null);
  // A link to /nexus-management#backups (the onboarding checklist may use one) lands on this section.
  useEffect(() => {
    if (window.location.hash === '#backups') top.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <div className="grid scroll-mt-4 gap-4" id="backups" ref={top}>
      {data?.pendingRestore ? <PendingRestoreBanner pending={data.pendingRestore} /> : null}
      <Panel
        title="Backups"
        icon={History}
        description="Whole-hub backups, sealed with a passphrase. Newest first."
        actions={<BackUpNowDialog />}
      >
        {list.error && !data ? (
          <Alert variant="destructive">
            <AlertTitle>The backups could not be read</AlertTitle>
            <AlertDescription>{errorMessage(list.error)}</AlertDescription>
          </Alert>
        ) : !data ? (
          <div className="grid gap-2" aria-busy="true" aria-label="Loading the backups">
            <Skeleton className="h-5 w-64" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : (
          <>
            <LastRun run={data.lastRun} />
            <BackupRows backups={data.backups} />
          </>
        )}
      </Panel>
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel
          title="Schedule"
          icon={CalendarClock}
          description="A daily backup into a folder or onto a USB disk; older scheduled ones are removed."
        >
          {data ? (
            // Saved values come back in the list: a new key starts the form from them.
            <ScheduleForm key={JSON.stringify(data.schedule)} data={data} />
          ) : (
            <div className="grid gap-2" aria-busy="true" aria-label="Loading the schedule">
              <Skeleton className="h-6 w-40" />
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-9 w-full" />
            </div>
          )}
        </Panel>
        <Panel
          title="Restore"
          icon={ArchiveRestore}
          description="Put a backup back on this hub. It is checked before anything changes, and you can go back until you keep it."
        >
          <RestoreForm path={BACKUP_PATHS.restore} confirmReplace submitLabel="Restore" />
        </Panel>
      </div>
    </div>
  );
}

/** Nexus management's backups section (administrators): list, back up now, schedule, restore. */
export function BackupsSection() {
  return (
    <ReauthProvider>
      <Backups />
    </ReauthProvider>
  );
}
