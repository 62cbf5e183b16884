/**
 * What the wizard remembers in this browser tab before the owner's account exists, so a reload
 * resumes at the same step with the same answers. The password is never kept: it is typed again.
 * Once the account exists, the agent keeps the progress (GET /api/setup/progress).
 */
export const DRAFT_STORAGE_KEY = 'nexus.setup.draft';

const DRAFT_STEPS = ['welcome', 'owner', 'hub'] as const;
export interface WizardDraft {
  step: (typeof DRAFT_STEPS)[number];
  name: string;
  email: string;
  hubName: string;
  timeZone: string;
}

/** Only the known fields, only strings of sane length: anything else reads as no draft. */
function toDraft(value: unknown): WizardDraft | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const text = (key: string) =>
    typeof v[key] === 'string' && (v[key] as string).length <= 300 ? (v[key] as string) : null;
  const step = DRAFT_STEPS.find((s) => s === v.step);
  const [name, email, hubName, timeZone] = [text('name'), text('email'), text('hubName'), text('timeZone')];
  if (!step || name === null || email === null || hubName === null || timeZone === null) return null;
  return { step, name, email, hubName, timeZone };
}

export const EMPTY_DRAFT: WizardDraft = { step: 'welcome', name: '', email: '', hubName: '', timeZone: '' };

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function loadDraft(storage: DraftStorage | undefined): WizardDraft {
  try {
    const raw = storage?.getItem(DRAFT_STORAGE_KEY);
    if (!raw) return EMPTY_DRAFT;
    return toDraft(JSON.parse(raw)) ?? EMPTY_DRAFT;
  } catch {
    return EMPTY_DRAFT;
  }
}

export function saveDraft(storage: DraftStorage | undefined, draft: WizardDraft): void {
  try {
    const clean = toDraft(draft);
    if (clean) storage?.setItem(DRAFT_STORAGE_KEY, JSON.stringify(clean));
  } catch {
    // Storage full or disabled: the wizard still works, it only forgets on reload.
  }
}

export function clearDraft(storage: DraftStorage | undefined): void {
  try {
    storage?.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // nothing to clear
  }
}

/** The browser's own time zone, the best first guess when the hub's is UTC (containers usually are). */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Every IANA zone the browser knows, for the time-zone picker. */
export function timeZoneNames(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}
