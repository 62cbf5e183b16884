import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { RotateCcw, Upload } from 'lucide-react';
import { BACKUP_FILE_EXTENSION, MAX_BACKUP_UPLOAD_BYTES, type RestoreAccepted } from '@nexus/agent/contract';
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
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { useReauth } from '@/features/account';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import { signOutAfterRestart, uploadRestore, waitForRestart } from '@/data/backups';
import { formatWhen } from '../format';

/**
 * "Restarting…": waits for the agent to come back with the restored (or reverted) data, then
 * loads the sign-in page afresh, since nothing this page holds belongs to the new state.
 */
export function RestartWait({ children }: { children: ReactNode }) {
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    waitForRestart()
      .then(signOutAfterRestart)
      .then(() => window.location.assign('/auth'))
      .catch((error: unknown) => setFailure(errorMessage(error) ?? 'The hub did not come back'));
  }, []);
  if (failure) {
    return (
      <Alert variant="destructive">
        <AlertTitle>The hub has not restarted</AlertTitle>
        <AlertDescription>
          <p>{failure}</p>
          <Button
            className="mt-2"
            variant="outline"
            size="sm"
            onClick={() => window.location.assign('/auth')}
          >
            Reload
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <div role="status" aria-live="polite" className="flex items-start gap-3 rounded-lg border p-4">
      <Spinner className="mt-0.5 size-5 shrink-0 text-primary" />
      <div className="grid gap-1">
        <p className="font-medium">Restarting…</p>
        <p className="text-sm text-muted-foreground">{children}</p>
      </div>
    </div>
  );
}

/**
 * Restore from a `.nexusbackup` file: the file and its passphrase, an optional confirmation that it
 * replaces everything, the upload with its progress, then the restart-wait. Used by Nexus management
 * (POST /api/backups/restore) and by the first-boot wizard (POST /api/setup/restore).
 */
export function RestoreForm({
  path,
  confirmReplace,
  submitLabel = 'Restore',
  extraActions,
}: {
  path: string;
  /** Ask "this replaces everything on the hub" first (not on a hub that has nothing yet). */
  confirmReplace: boolean;
  submitLabel?: string;
  extraActions?: ReactNode;
}) {
  const id = useId();
  const run = useReauth();
  const [file, setFile] = useState<File | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [accepted, setAccepted] = useState<RestoreAccepted | null>(null);
  const uploading = progress !== null;

  const upload = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      setAccepted(await run(() => uploadRestore(path, file, passphrase, setProgress)));
    } catch (err) {
      setError(errorMessage(err) ?? 'The restore failed');
    } finally {
      setProgress(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError(`Choose a backup file (${BACKUP_FILE_EXTENSION}).`);
      return;
    }
    if (file.size > MAX_BACKUP_UPLOAD_BYTES) {
      setError(`That file is larger than the ${formatBytes(MAX_BACKUP_UPLOAD_BYTES)} a backup may be.`);
      return;
    }
    if (!passphrase) {
      setError('Type the passphrase the backup was made with.');
      return;
    }
    setError(null);
    if (confirmReplace) setAsking(true);
    else void upload();
  };

  if (accepted) {
    return (
      <RestartWait>
        The hub is starting with the backup of {formatWhen(accepted.backupCreatedAt)} from {accepted.hubName}.
        You will sign in again with that hub&apos;s accounts.
      </RestartWait>
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3" aria-label="Restore from a backup" noValidate>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-file`}>Backup file</Label>
        <Input
          id={`${id}-file`}
          type="file"
          accept={BACKUP_FILE_EXTENSION}
          disabled={uploading}
          aria-describedby={`${id}-file-hint`}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        <p id={`${id}-file-hint`} className="text-xs text-muted-foreground">
          A {BACKUP_FILE_EXTENSION} file downloaded from a hub, or copied from its backup folder.
        </p>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-passphrase`}>Backup passphrase</Label>
        <Input
          id={`${id}-passphrase`}
          type="password"
          autoComplete="off"
          disabled={uploading}
          value={passphrase}
          onChange={(event) => setPassphrase(event.target.value)}
        />
      </div>
      {uploading ? (
        <div className="grid gap-1.5" role="status" aria-live="polite">
          <Progress value={Math.round(progress * 100)} aria-label="Upload progress" />
          <p className="text-xs text-muted-foreground">
            {progress < 1
              ? `Uploading… ${Math.round(progress * 100)}%`
              : 'Checking the backup (passphrase, integrity, version)…'}
          </p>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={uploading}>
          {uploading ? <Spinner className="size-4" /> : <Upload aria-hidden="true" />}
          {submitLabel}
        </Button>
        {extraActions}
      </div>
      <AlertDialog open={asking} onOpenChange={setAsking}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Replace everything on this hub?</AlertDialogTitle>
            <AlertDialogDescription>
              The restore replaces this hub&apos;s accounts, flows, wake words, secrets, settings and history
              with the backup&apos;s. The hub restarts and everyone signs in again. Until you keep the
              restored data, you can go back to what the hub has now.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              onClick={() => {
                setAsking(false);
                void upload();
              }}
            >
              <RotateCcw aria-hidden="true" />
              Replace and restart
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}
