import { Check, Copy, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { TOTP_DIGITS, type PublicUser, type TwoFactorSetup } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { StatusPill } from '@/components/ui/status-pill';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useDisableTwoFactor, useEnableTwoFactor, useSetupTwoFactor } from '@/data/auth';
import { QrCode } from './qr-code';
import { FreshRecoveryCodes, RecoveryCodesStatus } from './recovery-codes';

type Phase = 'off' | 'enrolling' | 'on';

export function TwoFactorCard({ user }: { user: PublicUser }) {
  const id = useId();
  const stepId = `${id}-step`;
  // Held here, not in the forms: a success swaps the form out, and TanStack Query drops the
  // callbacks of a mutate() whose component has unmounted, which would lose the toast.
  const setup = useSetupTwoFactor();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const phase: Phase = user.twoFactorEnabled ? 'on' : setup.data ? 'enrolling' : 'off';
  // Recovery codes just made (at enrolment or on request): on screen until dismissed, never again.
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);

  // The control that was pressed disappears with each step; focus goes to the step that replaced
  // it, so keyboard and screen-reader users are not dropped at the top of the page. Not on the
  // first render: opening the screen must not jump into the middle of it.
  const movedByUser = useRef(false);
  useEffect(() => {
    if (!movedByUser.current) return;
    movedByUser.current = false;
    document.getElementById(stepId)?.focus();
  }, [phase, stepId]);
  // Marked before the request, since the new step can render before the mutate() callbacks run;
  // the returned handler unmarks it when the request fails and the step stays.
  const expectStepChange = (onError?: () => void) => {
    movedByUser.current = true;
    return () => {
      movedByUser.current = false;
      onError?.();
    };
  };

  const start = () => {
    enable.reset();
    setup.mutate(undefined, { onError: expectStepChange() });
  };
  const cancel = () => {
    expectStepChange();
    setup.reset();
  };
  const turnOn = (code: string, onError: () => void) =>
    enable.mutate(
      { code },
      {
        onSuccess: ({ recoveryCodes }) => {
          setup.reset();
          setFreshCodes(recoveryCodes);
          toast({
            title: 'Two-factor authentication enabled',
            description: 'From now on, signing in asks for a code from your authenticator app.',
          });
        },
        onError: expectStepChange(onError),
      },
    );
  const turnOff = (code: string, onError: () => void) =>
    disable.mutate(
      { code },
      {
        onSuccess: () => {
          setFreshCodes(null);
          toast({
            title: 'Two-factor authentication disabled',
            description: 'Your password alone signs you in now. You can remove the account from the app.',
          });
        },
        onError: expectStepChange(onError),
      },
    );

  return (
    <Card role="region" aria-labelledby={`${id}-heading`}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id={`${id}-heading`} role="heading" aria-level={2} className="text-lg">
            Two-factor authentication
          </CardTitle>
          <StatusPill tone={user.twoFactorEnabled ? 'good' : 'neutral'} data-testid="two-factor-status">
            {user.twoFactorEnabled ? 'Enabled' : 'Disabled'}
          </StatusPill>
        </div>
        <CardDescription>
          With it on, signing in takes your password and a {TOTP_DIGITS}-digit code from an authenticator app
          on your phone, such as Aegis, Google Authenticator or 1Password.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {phase === 'on' ? (
          <div className="grid gap-5">
            {freshCodes ? <FreshRecoveryCodes codes={freshCodes} onDone={() => setFreshCodes(null)} /> : null}
            <DisableForm
              stepId={stepId}
              pending={disable.isPending}
              error={disable.error}
              onSubmit={turnOff}
            />
            <RecoveryCodesStatus onNewCodes={setFreshCodes} />
          </div>
        ) : phase === 'enrolling' && setup.data ? (
          <EnrolForm
            stepId={stepId}
            setup={setup.data}
            pending={enable.isPending}
            error={enable.error}
            onSubmit={turnOn}
            onCancel={cancel}
          />
        ) : (
          <div className="grid justify-items-start gap-3">
            <p id={stepId} tabIndex={-1} className="text-sm outline-none">
              Two-factor authentication is off: your password alone signs you in.
            </p>
            <Button onClick={start} disabled={setup.isPending}>
              <ShieldCheck aria-hidden="true" />
              {setup.isPending ? 'Setting up...' : 'Set up two-factor authentication'}
            </Button>
            {setup.error ? (
              <p role="alert" className="text-sm text-destructive">
                {errorMessage(setup.error)}
              </p>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

interface CodeFormProps {
  stepId: string;
  pending: boolean;
  error: Error | null;
  /** `onError` runs if the agent refuses the code. */
  onSubmit: (code: string, onError: () => void) => void;
}

/** Groups of four, as authenticator apps print secrets: easier to read out and type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function EnrolForm({
  stepId,
  setup,
  pending,
  error,
  onSubmit,
  onCancel,
}: CodeFormProps & { setup: TwoFactorSetup; onCancel: () => void }) {
  const id = useId();
  const [code, setCode] = useState('');
  const secretRef = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState(false);

  const copySecret = () => {
    const selectSecret = () => {
      if (secretRef.current) window.getSelection()?.selectAllChildren(secretRef.current);
      toast({ title: 'Copy the secret key', description: 'It is selected: press Ctrl+C (⌘C on a Mac).' });
    };
    // The clipboard API exists only on https:// and localhost; a hub opened by its LAN address over
    // plain http has none, so the key is selected for the keyboard shortcut instead.
    if (!navigator.clipboard) {
      selectSecret();
      return;
    }
    navigator.clipboard.writeText(setup.secret).then(() => {
      setCopied(true);
      toast({ title: 'Secret key copied' });
    }, selectSecret);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A refused code is typed again from scratch: by then the app shows another one.
    onSubmit(code, () => setCode(''));
  };

  return (
    <ol className="grid list-decimal gap-5 pl-5 text-sm marker:text-muted-foreground">
      <li className="space-y-3">
        <p id={stepId} tabIndex={-1} className="font-medium outline-none">
          Scan this QR code with your authenticator app.
        </p>
        <QrCode value={setup.otpauthUrl} alt="QR code for adding this account to an authenticator app" />
      </li>
      <li className="space-y-2">
        <p className="font-medium">Or, if you cannot scan it, type this secret key into the app:</p>
        <div className="flex flex-wrap items-center gap-2">
          <code
            ref={secretRef}
            className="rounded-md bg-muted px-3 py-2 font-mono text-sm break-all"
            data-testid="totp-secret"
          >
            {grouped(setup.secret)}
          </code>
          <Button variant="outline" size="sm" onClick={copySecret}>
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy secret key'}
          </Button>
        </div>
        <p className="text-muted-foreground">
          Choose a time-based key if the app asks. Keep the key to yourself: anyone who has it can make your
          codes.
        </p>
      </li>
      <li>
        <form onSubmit={submit} className="grid max-w-xs gap-2" aria-label="Enable two-factor authentication">
          <p className="font-medium">Enter the {TOTP_DIGITS}-digit code the app now shows.</p>
          <CodeField id={`${id}-code`} value={code} onChange={setCode} />
          {error ? (
            <p role="alert" className="text-destructive">
              {errorMessage(error)}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={pending || code.length !== TOTP_DIGITS}>
              {pending ? 'Enabling...' : 'Enable two-factor authentication'}
            </Button>
            <Button variant="ghost" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          </div>
        </form>
      </li>
    </ol>
  );
}

function DisableForm({ stepId, pending, error, onSubmit }: CodeFormProps) {
  const id = useId();
  const [code, setCode] = useState('');
  // Whoever lost the phone turns 2FA off with one of the recovery codes instead.
  const [recovery, setRecovery] = useState(false);
  const ready = recovery ? /^[0-9a-z]{5}-?[0-9a-z]{5}$/i.test(code) : code.length === TOTP_DIGITS;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(code, () => setCode(''));
  };

  return (
    <div className="grid gap-4">
      <Alert id={stepId} tabIndex={-1} variant="success" className="outline-none">
        <ShieldCheck aria-hidden="true" />
        <AlertTitle>Two-factor authentication is on</AlertTitle>
        <AlertDescription>Signing in asks for a code from your authenticator app.</AlertDescription>
      </Alert>
      <form onSubmit={submit} className="grid max-w-xs gap-2" aria-label="Disable two-factor authentication">
        <p className="text-sm">
          {recovery
            ? 'To turn it off, enter one of your recovery codes (it is used up).'
            : 'To turn it off, enter a current code from your authenticator app.'}
        </p>
        {recovery ? (
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-recovery`}>Recovery code</Label>
            <Input
              id={`${id}-recovery`}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={11}
              placeholder="xxxxx-xxxxx"
              className="w-48 text-center font-mono"
              value={code}
              onChange={(event) => setCode(event.target.value.trim())}
            />
          </div>
        ) : (
          <CodeField id={`${id}-code`} value={code} onChange={setCode} />
        )}
        <Button
          type="button"
          variant="link"
          className="justify-self-start px-0"
          onClick={() => {
            setRecovery((on) => !on);
            setCode('');
          }}
        >
          {recovery ? 'Use a code from your authenticator app' : 'Lost your phone? Use a recovery code'}
        </Button>
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(error)}
          </p>
        ) : null}
        <Button
          type="submit"
          variant="destructive"
          className="justify-self-start"
          disabled={pending || !ready}
        >
          {pending ? 'Disabling...' : 'Disable two-factor authentication'}
        </Button>
      </form>
    </div>
  );
}

function CodeField({ id, value, onChange }: { id: string; value: string; onChange: (code: string) => void }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Authentication code</Label>
      <Input
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={TOTP_DIGITS}
        pattern={`\\d{${TOTP_DIGITS}}`}
        title={`${TOTP_DIGITS} digits`}
        placeholder="000000"
        required
        className="w-40 text-center font-mono text-lg tracking-[0.3em]"
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
      />
    </div>
  );
}
