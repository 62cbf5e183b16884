import type { ReactNode } from 'react';
import { Check, Circle, CircleDot, Minus, Server } from 'lucide-react';
import { SETUP_STEPS, type SetupStep } from '@nexus/agent/contract';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import { STEP_TITLES, isOptionalStep, stepNumber } from '../steps';

export interface StepStates {
  current: SetupStep;
  completed: readonly SetupStep[];
  skipped: readonly SetupStep[];
}

function StepIcon({ step, states }: { step: SetupStep; states: StepStates }) {
  if (step === states.current) return <CircleDot aria-hidden="true" className="size-4 text-primary" />;
  if (states.completed.includes(step)) return <Check aria-hidden="true" className="size-4 text-success" />;
  if (states.skipped.includes(step))
    return <Minus aria-hidden="true" className="size-4 text-muted-foreground" />;
  return <Circle aria-hidden="true" className="size-4 text-muted-foreground/60" />;
}

/**
 * The wizard's frame: the hub's name for the journey, where the owner is (step n of 7, a bar),
 * every step with its state, and the step itself. Full-page before anyone has signed in; inside
 * the console's frame afterwards.
 */
export function WizardFrame({
  states,
  bare,
  onSelect,
  selectable,
  children,
}: {
  states: StepStates;
  bare: boolean;
  /** Go back to a step; only steps for which `selectable` says yes are offered. */
  onSelect?: (step: SetupStep) => void;
  selectable?: (step: SetupStep) => boolean;
  children: ReactNode;
}) {
  const number = stepNumber(states.current);
  return (
    <div
      className={cn(
        'mx-auto grid w-full max-w-5xl gap-6 px-4 py-8',
        bare && 'min-h-dvh content-start md:py-12',
      )}
    >
      <header className="grid gap-3">
        <div className="flex items-center gap-3">
          <span className="grid size-10 place-items-center rounded-lg bg-primary text-primary-foreground">
            <Server aria-hidden="true" className="size-5" />
          </span>
          <div>
            <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Set up your Nexus hub</h1>
            <p className="text-sm text-muted-foreground">
              Step {number} of {SETUP_STEPS.length}: {STEP_TITLES[states.current]}
            </p>
          </div>
        </div>
        <Progress
          value={number}
          max={SETUP_STEPS.length}
          aria-label={`Setup progress: step ${number} of ${SETUP_STEPS.length}`}
        />
      </header>
      <div className="grid gap-6 md:grid-cols-[14rem_1fr]">
        <nav aria-label="Setup steps">
          <ol className="grid gap-1">
            {SETUP_STEPS.map((step) => {
              const canGo = step !== states.current && (selectable?.(step) ?? false);
              const label = (
                <>
                  <StepIcon step={step} states={states} />
                  <span className="flex-1">{STEP_TITLES[step]}</span>
                  {isOptionalStep(step) ? (
                    <span className="text-xs text-muted-foreground">optional</span>
                  ) : null}
                  {states.skipped.includes(step) ? <span className="sr-only">(skipped)</span> : null}
                  {states.completed.includes(step) && step !== states.current ? (
                    <span className="sr-only">(done)</span>
                  ) : null}
                </>
              );
              return (
                <li key={step}>
                  {canGo ? (
                    <button
                      type="button"
                      onClick={() => onSelect?.(step)}
                      className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    >
                      {label}
                    </button>
                  ) : (
                    <div
                      aria-current={step === states.current ? 'step' : undefined}
                      className={cn(
                        'flex items-center gap-2 rounded-md px-2 py-1.5 text-sm',
                        step === states.current ? 'bg-accent font-medium' : 'text-muted-foreground',
                      )}
                    >
                      {label}
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
        </nav>
        <Card>
          <CardContent className="grid gap-5 p-6">{children}</CardContent>
        </Card>
      </div>
    </div>
  );
}

/** A step's heading and one line of what it is for. */
export function StepHeading({ step, children }: { step: SetupStep; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <h2 className="text-xl font-semibold">{STEP_TITLES[step]}</h2>
      <p className="text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

/** Back on the left, the way forward on the right. */
export function StepActions({ children, back }: { children: ReactNode; back?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-5">
      <div>{back}</div>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}
