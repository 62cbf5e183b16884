import { OPTIONAL_SETUP_STEPS, SETUP_STEPS, type SetupStep } from '@nexus/agent/contract';

/** The wizard's steps as people read them (issue "The appliance": welcome → done). */
export const STEP_TITLES: Record<SetupStep, string> = {
  welcome: 'Welcome',
  owner: 'Owner account',
  hub: 'Hub name and time zone',
  network: 'Network check',
  'home-assistant': 'Home Assistant',
  services: 'Models and services',
  done: 'Done',
};

export const isOptionalStep = (step: SetupStep) => OPTIONAL_SETUP_STEPS.includes(step);

export function stepNumber(step: SetupStep): number {
  return SETUP_STEPS.indexOf(step) + 1;
}

export function previousStep(step: SetupStep): SetupStep | null {
  const index = SETUP_STEPS.indexOf(step);
  return index > 0 ? SETUP_STEPS[index - 1]! : null;
}

export function nextStep(step: SetupStep): SetupStep {
  const index = SETUP_STEPS.indexOf(step);
  return SETUP_STEPS[Math.min(index + 1, SETUP_STEPS.length - 1)]!;
}

/** After the owner exists, the steps before the hub name cannot be visited again. */
export function canRevisit(step: SetupStep, signedIn: boolean): boolean {
  return signedIn ? step !== 'welcome' && step !== 'owner' : step !== 'hub' && step !== 'done';
}
