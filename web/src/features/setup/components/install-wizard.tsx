import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { ShieldAlert } from 'lucide-react';
import type { SetupProgress, SetupStep } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { ApiRequestError, errorMessage } from '@/lib/request';
import {
  setupProgressQueryOptions,
  setupStatusQueryOptions,
  useCompleteSetup,
  useFinishSetup,
  useRecordStep,
  useRefreshSetupStatus,
  useSaveSetupHub,
  useSkipSetup,
} from '@/data/setup';
import { canRevisit, nextStep, previousStep } from '../steps';
import { browserTimeZone, clearDraft, loadDraft, saveDraft, type WizardDraft } from '../wizard-draft';
import { HubStep, OwnerStep, WelcomeStep, type OwnerFields } from './account-steps';
import { DoneStep, HomeAssistantStep, NetworkStep, ServicesStep } from './hub-steps';
import { RestoreStep } from './restore-step';
import { WizardFrame } from './wizard-frame';

const session = () => (typeof window === 'undefined' ? undefined : window.sessionStorage);

/** UTC is what a container reports when nobody set a zone; the browser's own zone is the better guess then. */
function suggestedZone(hubZone: string | undefined): string {
  if (hubZone && hubZone !== 'UTC' && hubZone !== 'Etc/UTC') return hubZone;
  return browserTimeZone() ?? hubZone ?? 'UTC';
}

/**
 * The steps before the owner exists: welcome, owner account, hub name. Nothing is sent until the
 * hub step, which creates the owner (signed in by the same answer) in one request; the answers
 * so far survive a reload in this tab, the password excepted.
 */
function FirstBootWizard() {
  const [, navigate] = useLocation();
  const status = useQuery(setupStatusQueryOptions());
  const [draft, setDraft] = useState<WizardDraft>(() => loadDraft(session()));
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alreadySetUp, setAlreadySetUp] = useState(false);
  const [restoring, setRestoring] = useState(false);

  const update = (change: Partial<WizardDraft>) =>
    setDraft((prev) => {
      const next = { ...prev, ...change };
      saveDraft(session(), next);
      return next;
    });

  // A reload at the hub step lost the password: ask for it again on the owner step.
  const passwordMissing = draft.step === 'hub' && password === '';
  const step: SetupStep = passwordMissing ? 'owner' : draft.step;

  const create = useCompleteSetup();
  const skip = useSkipSetup();
  const refreshSetupStatus = useRefreshSetupStatus();

  const createOwner = (input: Parameters<typeof create.mutate>[0]) =>
    create.mutate(input, {
      onSuccess: (result) => {
        clearDraft(session());
        // Signed in: the console's signed-in routes take over, and /install carries on from the network check.
        navigate('/install', { replace: true });
        toast({
          title: 'Owner account created',
          description: `Welcome, ${result.user.name}. You are signed in.`,
        });
      },
      onError: (e) => {
        if (e instanceof ApiRequestError && e.status === 409) {
          setAlreadySetUp(true);
          return;
        }
        setError(errorMessage(e) ?? 'The hub could not be set up');
      },
    });

  const skipSetup = () =>
    skip.mutate(undefined, {
      onSuccess: () => {
        clearDraft(session());
        navigate('/auth');
      },
      onError: (e) =>
        toast({ title: 'Could not skip', description: errorMessage(e), variant: 'destructive' }),
    });

  if (alreadySetUp) {
    return (
      <WizardFrame states={{ current: step, completed: [], skipped: [] }} bare>
        <Alert variant="warning">
          <ShieldAlert aria-hidden="true" />
          <AlertTitle>This hub is already set up</AlertTitle>
          <AlertDescription>
            Someone created the owner account a moment ago. Sign in instead.
          </AlertDescription>
        </Alert>
        <div>
          <Button
            onClick={() => {
              clearDraft(session());
              void refreshSetupStatus();
              navigate('/auth');
            }}
          >
            Go to the sign-in screen
          </Button>
        </div>
      </WizardFrame>
    );
  }

  const completed: SetupStep[] = step === 'owner' ? ['welcome'] : step === 'hub' ? ['welcome', 'owner'] : [];
  const owner: OwnerFields = { name: draft.name, email: draft.email, password };
  return (
    <WizardFrame
      states={{ current: step, completed, skipped: [] }}
      bare
      selectable={(s) => completed.includes(s)}
      onSelect={(s) => update({ step: s as WizardDraft['step'] })}
    >
      {step === 'welcome' && restoring ? (
        <RestoreStep onBack={() => setRestoring(false)} />
      ) : step === 'welcome' ? (
        <WelcomeStep
          onStart={() => update({ step: 'owner' })}
          onSkip={skipSetup}
          onRestore={() => setRestoring(true)}
          skipping={skip.isPending}
        />
      ) : step === 'owner' ? (
        <OwnerStep
          initial={owner}
          passwordForgotten={passwordMissing}
          onBack={() => update({ step: 'welcome' })}
          onChange={(fields) => update(fields)}
          onContinue={(fields) => {
            setPassword(fields.password);
            update({ step: 'hub', name: fields.name, email: fields.email });
          }}
        />
      ) : status.isPending && !draft.hubName ? (
        <Skeleton className="h-40 w-full" />
      ) : (
        <HubStep
          initialName={draft.hubName || status.data?.suggested?.hubName || 'Nexus'}
          initialTimeZone={draft.timeZone || suggestedZone(status.data?.suggested?.timeZone)}
          submitLabel="Create the hub"
          busy={create.isPending}
          error={error}
          onBack={() => update({ step: 'owner' })}
          onChange={(values) => update(values)}
          onSubmit={(values) => {
            setError(null);
            update(values);
            createOwner({ ...values, owner });
          }}
        />
      )}
    </WizardFrame>
  );
}

/**
 * After the owner exists: the agent keeps the progress, so a reload (or another browser) resumes
 * at its current step. Steps already done can be opened again from the list.
 */
function OwnerWizard({ progress, refreshError }: { progress: SetupProgress; refreshError?: ReactNode }) {
  const [viewing, setViewing] = useState<SetupStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const step = viewing ?? progress.currentStep;

  // The data module keeps the progress and the header's hub name; the wizard moves on.
  const apply = useCallback(() => {
    setViewing(null);
    setError(null);
  }, []);
  const onFailure = (e: unknown) => {
    setError(errorMessage(e) ?? 'Saving failed');
    toast({ title: 'Setup step failed', description: errorMessage(e), variant: 'destructive' });
  };

  const recordMutation = useRecordStep();
  const saveHubMutation = useSaveSetupHub();
  const finishMutation = useFinishSetup();
  const record = {
    ...recordMutation,
    mutate: (input: { step: SetupStep; outcome: 'done' | 'skipped' }) =>
      recordMutation.mutate(input, { onSuccess: apply, onError: onFailure }),
  };
  const saveHub = {
    ...saveHubMutation,
    mutate: (input: Parameters<typeof saveHubMutation.mutate>[0]) =>
      saveHubMutation.mutate(input, { onSuccess: apply, onError: onFailure }),
  };

  // Reaching the last step finishes the setup, once.
  const finishing = useRef(false);
  useEffect(() => {
    if (step === 'done' && !progress.finishedAt && !finishing.current) {
      finishing.current = true;
      finishMutation.mutate(undefined, { onSuccess: apply });
    }
  }, [step, progress.finishedAt, finishMutation, apply]);

  const back = () => {
    const previous = previousStep(step);
    if (previous && canRevisit(previous, true)) setViewing(previous);
  };
  const busy = record.isPending || saveHub.isPending;
  const go = (s: SetupStep, outcome: 'done' | 'skipped') => record.mutate({ step: s, outcome });

  return (
    <WizardFrame
      states={{ current: step, completed: progress.completed, skipped: progress.skipped }}
      bare={false}
      selectable={(s) =>
        canRevisit(s, true) &&
        (progress.completed.includes(s) || progress.skipped.includes(s) || s === progress.currentStep)
      }
      onSelect={(s) => setViewing(s === progress.currentStep ? null : s)}
    >
      {refreshError}
      {step === 'hub' ? (
        <HubStep
          initialName={progress.hubName}
          initialTimeZone={suggestedZone(progress.timeZone)}
          submitLabel="Save and continue"
          busy={saveHub.isPending}
          error={error}
          onSubmit={(values) => saveHub.mutate(values)}
        />
      ) : step === 'network' ? (
        <NetworkStep busy={busy} onBack={back} onContinue={() => go('network', 'done')} />
      ) : step === 'home-assistant' ? (
        <HomeAssistantStep
          busy={busy}
          onBack={back}
          onSkip={() => go('home-assistant', 'skipped')}
          onContinue={() => go('home-assistant', 'done')}
        />
      ) : step === 'services' ? (
        <ServicesStep
          busy={busy}
          timeZone={progress.timeZone}
          onBack={back}
          onSkip={() => go('services', 'skipped')}
          onContinue={(deployedAny) => go('services', deployedAny ? 'done' : 'skipped')}
        />
      ) : step === 'done' ? (
        <DoneStep progress={progress} />
      ) : (
        // welcome and owner are behind an owner who is signed in.
        <div className="grid gap-3">
          <p>The owner account exists.</p>
          <div>
            <Button onClick={() => setViewing(nextStep('owner'))}>Continue</Button>
          </div>
        </div>
      )}
    </WizardFrame>
  );
}

function OnlyAdmins() {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10">
      <Card>
        <CardHeader>
          <CardTitle role="heading" aria-level={1} className="text-2xl">
            Set up your Nexus hub
          </CardTitle>
          <CardDescription>
            The setup belongs to the hub&apos;s owner and administrators. Ask them to finish it, or read the{' '}
            <Link href="/nexus-quick-start" className="underline">
              quick start guide
            </Link>
            .
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="outline">
            <Link href="/dashboard">Back to the dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

/** /install: the first-boot wizard (issue "The appliance"). */
export function InstallWizard() {
  const { user, isAdmin } = useAuth();
  const progress = useQuery(setupProgressQueryOptions(Boolean(user) && isAdmin));
  if (!user) return <FirstBootWizard />;
  if (!isAdmin) return <OnlyAdmins />;
  if (progress.isLoadingError) {
    return (
      <div className="mx-auto w-full max-w-2xl px-4 py-10">
        <Alert variant="destructive">
          <AlertTitle>The setup progress could not be read</AlertTitle>
          <AlertDescription>{errorMessage(progress.error)}</AlertDescription>
        </Alert>
      </div>
    );
  }
  if (!progress.data) {
    return (
      <div
        className="mx-auto grid w-full max-w-5xl gap-4 px-4 py-8"
        aria-busy="true"
        aria-label="Loading the setup"
      >
        <Skeleton className="h-10 w-72" />
        <Skeleton className="h-2 w-full" />
        <Skeleton className="h-72 w-full" />
      </div>
    );
  }
  // A failed refresh keeps the wizard, and the step in hand, with the progress as it last read.
  return (
    <OwnerWizard
      progress={progress.data}
      refreshError={<RefreshError what="the setup progress" query={progress} />}
    />
  );
}
