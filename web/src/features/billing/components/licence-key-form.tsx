import { useId, useState, type DragEvent, type FormEvent } from 'react';
import { CircleCheck, FileKey, KeyRound, TriangleAlert } from 'lucide-react';
import { MAX_LICENCE_KEY_LENGTH, PLANS, type LicenceRecord } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { cn } from '@/lib/utils';
import { useActivateLicence } from '@/data/subscription';
import { activationErrorText, formatDate, keyFromFileText } from '../billing-logic';

/** A licence file is a few hundred bytes of text; anything far larger is not one. */
const MAX_FILE_BYTES = 64 * 1024;

/**
 * Paste a licence key, or drop or choose the licence file whose text is the key, and activate it
 * (admins). A refusal says its reason in words; a success shows the plan and its expiry.
 */
export function LicenceKeyForm({
  initialKey = '',
  fromLink = false,
}: {
  initialKey?: string;
  /** The key came with an activation link: the admin confirms before anything is sent. */
  fromLink?: boolean;
}) {
  const { isAdmin } = useAuth();
  const [key, setKey] = useState(initialKey);
  const [dragging, setDragging] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [activated, setActivated] = useState<LicenceRecord | null>(null);
  const activate = useActivateLicence();
  const keyId = useId();
  const fileId = useId();
  const hintId = useId();

  async function readFile(file: File | undefined) {
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(`${file.name} is too large to be a licence file.`);
      return;
    }
    const text = keyFromFileText(await file.text());
    if (!text) {
      setFileError(`${file.name} is empty.`);
      return;
    }
    setKey(text);
    activate.reset();
    setActivated(null);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (!isAdmin) return;
    void readFile(event.dataTransfer.files[0]);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed || !isAdmin) return;
    setActivated(null);
    activate.mutate(
      { key: trimmed },
      {
        onSuccess: ({ licence }) => {
          setActivated(licence);
          setKey('');
          toast({ title: `${PLANS[licence.plan].name} licence activated` });
        },
      },
    );
  }

  return (
    <form className="grid gap-4" onSubmit={submit}>
      {fromLink && initialKey && !activated ? (
        <Alert data-testid="link-confirm">
          <KeyRound aria-hidden="true" />
          <AlertTitle>Activate the licence from this link?</AlertTitle>
          <AlertDescription>
            <p>
              The link brought the key below. Activate it only if it came from your vendor: it replaces the
              plan in force on this hub.
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      {!isAdmin ? (
        <p className="text-sm text-muted-foreground">
          Activating a licence needs an administrator. Ask one to paste the key here.
        </p>
      ) : null}
      <div className="grid gap-1.5">
        <Label htmlFor={keyId}>Licence key</Label>
        <Textarea
          id={keyId}
          value={key}
          onChange={(e) => {
            setKey(e.target.value);
            if (activate.isError) activate.reset();
          }}
          placeholder="NXL1.…"
          aria-describedby={hintId}
          aria-invalid={activate.isError || undefined}
          maxLength={MAX_LICENCE_KEY_LENGTH}
          spellCheck={false}
          autoComplete="off"
          disabled={!isAdmin || activate.isPending}
          className="min-h-24 font-mono text-xs break-all"
        />
        <p id={hintId} className="text-xs text-muted-foreground">
          Paste the key the vendor sent, or drop the licence file below.
        </p>
      </div>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (isAdmin) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="licence-drop-zone"
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-lg border border-dashed p-4 text-sm text-muted-foreground',
          dragging && 'border-primary bg-primary/5',
        )}
      >
        <FileKey aria-hidden="true" className="size-5 shrink-0" />
        <span className="flex-1">Drop a licence file here, or</span>
        <Label htmlFor={fileId} className="sr-only">
          Licence file
        </Label>
        <input
          id={fileId}
          type="file"
          accept=".lic,.key,.txt,.nxl,text/plain"
          disabled={!isAdmin || activate.isPending}
          onChange={(e) => {
            void readFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          className="max-w-56 text-sm file:mr-2 file:rounded-md file:border file:bg-background file:px-2 file:py-1 file:text-foreground"
        />
      </div>
      {fileError ? (
        <p role="alert" className="text-sm text-destructive">
          {fileError}
        </p>
      ) : null}
      {activate.isError ? (
        <Alert variant="destructive" data-testid="activation-refused">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>The key was refused</AlertTitle>
          <AlertDescription>
            <p>{activationErrorText(activate.error)}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {activated ? (
        <Alert variant="success" data-testid="activation-result">
          <CircleCheck aria-hidden="true" />
          <AlertTitle>{PLANS[activated.plan].name} is active on this hub</AlertTitle>
          <AlertDescription>
            <p>
              Licence {activated.lid}, valid until{' '}
              <time dateTime={activated.expiresAt}>{formatDate(activated.expiresAt)}</time>.
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={!isAdmin || !key.trim() || activate.isPending}>
          {activate.isPending ? (
            <Spinner className="size-4" label="Activating" />
          ) : (
            <KeyRound aria-hidden="true" />
          )}
          {fromLink && initialKey && !activated ? 'Activate this licence' : 'Activate licence'}
        </Button>
      </div>
    </form>
  );
}
