import { useId, useMemo, useState, type FormEvent } from 'react';
import { ArchiveRestore, ArrowLeft, ArrowRight, Info } from 'lucide-react';
import { PASSWORD_MIN_LENGTH, isValidTimeZone } from '@nexus/agent/contract';
import { Alert, AlertDescription } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { timeZoneNames } from '../wizard-draft';
import { StepActions, StepHeading } from './wizard-frame';

export function WelcomeStep({
  onStart,
  onSkip,
  onRestore,
  skipping,
}: {
  onStart: () => void;
  onSkip: () => void;
  /** A new or reset hub can take over an old one's data from a backup instead. */
  onRestore: () => void;
  skipping: boolean;
}) {
  return (
    <>
      <StepHeading step="welcome">This hub has no owner yet. A few minutes here and it is ready.</StepHeading>
      <div className="grid gap-3 text-sm">
        <p>The wizard walks you through:</p>
        <ol className="ml-5 list-decimal space-y-1">
          <li>the owner account, which can do everything on this hub;</li>
          <li>a name for the hub and its time zone;</li>
          <li>a check that the hub is on your network and can reach the internet;</li>
          <li>connecting Home Assistant (optional);</li>
          <li>the models and services the hub runs: Ollama, Home Assistant, Whisper, Piper (optional).</li>
        </ol>
        <p className="text-muted-foreground">
          You can leave at any point: the wizard picks up where you left it when you come back to /install.
        </p>
        <p className="text-muted-foreground">
          Replacing a hub, or starting over after a reset? Restore its backup instead, and everything it had
          comes back.
        </p>
      </div>
      <StepActions
        back={
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="link" className="px-0" disabled={skipping}>
                Skip the wizard
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Skip the setup wizard?</AlertDialogTitle>
                <AlertDialogDescription>
                  You can create the owner account on the sign-in screen instead (the first account is the
                  owner). The hub keeps its host name until you rename it in Nexus management, and the rest of
                  the wizard stays available at /install.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Keep setting up</AlertDialogCancel>
                <AlertDialogAction onClick={onSkip}>Go to the sign-in screen</AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        }
      >
        <Button variant="outline" onClick={onRestore} disabled={skipping}>
          <ArchiveRestore aria-hidden="true" /> Restore from a backup
        </Button>
        <Button onClick={onStart}>
          Get started <ArrowRight aria-hidden="true" />
        </Button>
      </StepActions>
    </>
  );
}

export interface OwnerFields {
  name: string;
  email: string;
  password: string;
}

export function OwnerStep({
  initial,
  passwordForgotten,
  onBack,
  onContinue,
  onChange,
}: {
  initial: OwnerFields;
  /** The page was reloaded after the password was typed: it is never stored, so it is asked again. */
  passwordForgotten: boolean;
  onBack: () => void;
  onContinue: (owner: OwnerFields) => void;
  onChange: (owner: Omit<OwnerFields, 'password'>) => void;
}) {
  const [name, setName] = useState(initial.name);
  const [email, setEmail] = useState(initial.email);
  const [password, setPassword] = useState(initial.password);
  const [confirm, setConfirm] = useState(initial.password);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password.length < PASSWORD_MIN_LENGTH) {
      setError(`The password needs at least ${PASSWORD_MIN_LENGTH} characters.`);
      return;
    }
    if (password !== confirm) {
      setError('Passwords do not match');
      return;
    }
    setError(null);
    onContinue({ name: name.trim(), email: email.trim(), password });
  };

  return (
    <form className="grid gap-5" onSubmit={submit} noValidate={false}>
      <StepHeading step="owner">
        The owner is this hub&apos;s superadmin: the account that manages users, services and settings.
      </StepHeading>
      {passwordForgotten ? (
        <Alert>
          <Info aria-hidden="true" />
          <AlertDescription>
            The page was reloaded: enter the password again (it is never stored).
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input
            id={`${id}-name`}
            required
            maxLength={100}
            autoComplete="name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              onChange({ name: e.target.value, email });
            }}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input
            id={`${id}-email`}
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              onChange({ name, email: e.target.value });
            }}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-password`}>Password</Label>
          <Input
            id={`${id}-password`}
            type="password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            autoComplete="new-password"
            aria-describedby={`${id}-password-help`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p id={`${id}-password-help`} className="text-xs text-muted-foreground">
            At least {PASSWORD_MIN_LENGTH} characters.
          </p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-confirm`}>Confirm password</Label>
          <Input
            id={`${id}-confirm`}
            type="password"
            required
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <StepActions
        back={
          <Button type="button" variant="ghost" onClick={onBack}>
            <ArrowLeft aria-hidden="true" /> Back
          </Button>
        }
      >
        <Button type="submit">
          Continue <ArrowRight aria-hidden="true" />
        </Button>
      </StepActions>
    </form>
  );
}

export function HubStep({
  initialName,
  initialTimeZone,
  submitLabel,
  busy,
  error,
  onBack,
  onChange,
  onSubmit,
}: {
  initialName: string;
  initialTimeZone: string;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onBack?: () => void;
  onChange?: (values: { hubName: string; timeZone: string }) => void;
  onSubmit: (values: { hubName: string; timeZone: string }) => void;
}) {
  const [hubName, setHubName] = useState(initialName);
  const [timeZone, setTimeZone] = useState(initialTimeZone);
  const [problem, setProblem] = useState<string | null>(null);
  const zones = useMemo(() => timeZoneNames(), []);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!hubName.trim()) {
      setProblem('Give the hub a name.');
      return;
    }
    if (!isValidTimeZone(timeZone.trim())) {
      setProblem('Not a time zone: choose one from the list, such as Europe/Berlin.');
      return;
    }
    setProblem(null);
    onSubmit({ hubName: hubName.trim(), timeZone: timeZone.trim() });
  };

  const shown = problem ?? error;
  return (
    <form className="grid gap-5" onSubmit={submit}>
      <StepHeading step="hub">
        The name tells your hubs apart (in the top bar and on other hubs that watch this one); the time zone
        is used for schedules, history and Home Assistant.
      </StepHeading>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-hub`}>Hub name</Label>
          <Input
            id={`${id}-hub`}
            required
            maxLength={64}
            value={hubName}
            onChange={(e) => {
              setHubName(e.target.value);
              onChange?.({ hubName: e.target.value, timeZone });
            }}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-tz`}>Time zone</Label>
          <Input
            id={`${id}-tz`}
            required
            list={`${id}-zones`}
            autoComplete="off"
            value={timeZone}
            onChange={(e) => {
              setTimeZone(e.target.value);
              onChange?.({ hubName, timeZone: e.target.value });
            }}
          />
          <datalist id={`${id}-zones`}>
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
      </div>
      {shown ? (
        <p role="alert" className="text-sm text-destructive">
          {shown}
        </p>
      ) : null}
      <StepActions
        back={
          onBack ? (
            <Button type="button" variant="ghost" onClick={onBack} disabled={busy}>
              <ArrowLeft aria-hidden="true" /> Back
            </Button>
          ) : null
        }
      >
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : submitLabel} <ArrowRight aria-hidden="true" />
        </Button>
      </StepActions>
    </form>
  );
}
