import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MIN_BACKUP_PASSPHRASE_LENGTH,
  backupListSchema,
  createdBackupSchema,
  restoreAcceptedSchema,
  type BackupScheduleInput,
  type RestoreAccepted,
} from '@nexus/agent/contract';
import { useReauth } from '@/lib/reauth-context';
import { ApiRequestError, apiJson } from '@/lib/request';

/** Backups' calls (agent: features/backups; the first-boot restore is the setup's). */
export const BACKUP_PATHS = {
  list: '/api/backups',
  schedule: '/api/backups/schedule',
  restore: '/api/backups/restore',
  confirmRestore: '/api/backups/restore/confirm',
  revertRestore: '/api/backups/restore/revert',
  setupRestore: '/api/setup/restore',
  health: '/api/health',
  logout: '/api/auth/logout',
} as const;

export const backupKeys = {
  list: [BACKUP_PATHS.list] as const,
};

export const backupDownloadUrl = (id: string) => `${BACKUP_PATHS.list}/${encodeURIComponent(id)}/download`;

export const backupsQueryOptions = () =>
  queryOptions({
    queryKey: backupKeys.list,
    queryFn: async () => backupListSchema.parse(await apiJson<unknown>('GET', BACKUP_PATHS.list)),
  });

export const useBackups = () => useQuery(backupsQueryOptions());

export const createBackup = async (passphrase: string) =>
  createdBackupSchema.parse(await apiJson<unknown>('POST', BACKUP_PATHS.list, { passphrase }));

export const deleteBackup = async (id: string) => {
  await apiJson<unknown>('DELETE', `${BACKUP_PATHS.list}/${encodeURIComponent(id)}`);
};

export const saveSchedule = async (input: BackupScheduleInput) => {
  await apiJson<unknown>('PUT', BACKUP_PATHS.schedule, input);
};

export const confirmRestore = async () => {
  await apiJson<unknown>('POST', BACKUP_PATHS.confirmRestore);
};

export const revertRestore = async () => {
  await apiJson<unknown>('POST', BACKUP_PATHS.revertRestore);
};

/** Every change refreshes the one list (it carries the schedule, the last run and a pending restore too). */
function useBackupMutation<I, O>(action: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  const run = useReauth();
  return useMutation({
    mutationFn: (input: I) => run(() => action(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: backupKeys.list }),
  });
}

export const useCreateBackup = () => useBackupMutation(createBackup);
export const useDeleteBackup = () => useBackupMutation(deleteBackup);
export const useSaveSchedule = () => useBackupMutation(saveSchedule);
export const useConfirmRestore = () => useBackupMutation(confirmRestore);
export const useRevertRestore = () => {
  const run = useReauth();
  // No refresh afterwards: the agent restarts, and the restart-wait takes over.
  return useMutation({ mutationFn: () => run(revertRestore) });
};

/**
 * Uploads a backup for a restore with XMLHttpRequest, whose upload events give a progress bar
 * (fetch has none for request bodies). A refusal becomes the same ApiRequestError as apiJson's,
 * so errorMessage and the re-authentication prompt read it alike.
 */
export function uploadRestore(
  path: string,
  file: File,
  passphrase: string,
  onProgress: (fraction: number) => void,
): Promise<RestoreAccepted> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    // The passphrase first: the agent reads the fields in order and can refuse before the whole file arrives.
    form.append('passphrase', passphrase);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(restoreAcceptedSchema.parse(JSON.parse(xhr.responseText)));
        } catch (error) {
          reject(error instanceof Error ? error : new Error('The hub answered something unexpected'));
        }
        return;
      }
      reject(new ApiRequestError(xhr.status, xhr.statusText, xhr.responseText));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the hub could not be reached'));
    xhr.onabort = () => reject(new Error('The upload was cancelled'));
    xhr.send(form);
  });
}

const HEALTH_POLL_MS = 250;
/** How long the agent may keep answering after it accepted a restore before it goes down. */
const GOING_DOWN_MS = 15_000;
/** How long the restart may take (a Jetson's SD card is slow) before the console says so. */
const COMING_BACK_MS = 180_000;

async function healthy(): Promise<boolean> {
  try {
    const res = await fetch(BACKUP_PATHS.health, { cache: 'no-store', credentials: 'omit' });
    return res.ok;
  } catch {
    return false;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the agent's restart after a restore: first for it to go away (it answers 202 before
 * it exits), then for /api/health to answer again. If it never seems to go away (a restart faster
 * than one poll), the second wait starts anyway. Rejects when it does not come back in time.
 */
export async function waitForRestart(): Promise<void> {
  const goingDown = Date.now() + GOING_DOWN_MS;
  while (Date.now() < goingDown && (await healthy())) await pause(HEALTH_POLL_MS);
  const comingBack = Date.now() + COMING_BACK_MS;
  while (Date.now() < comingBack) {
    if (await healthy()) return;
    await pause(HEALTH_POLL_MS);
  }
  throw new Error('The hub has not come back after three minutes. Check its power and its log, then reload.');
}

/**
 * Ends this browser's session in the restored state too: a backup may hold the very session that
 * made it, and after a restore everyone signs in again. Best effort (there may be no session).
 */
export async function signOutAfterRestart(): Promise<void> {
  try {
    await fetch(BACKUP_PATHS.logout, { method: 'POST', credentials: 'include' });
  } catch {
    // Nothing to end, or the hub is busy: the sign-in page is still the right place.
  }
}

export type PassphraseStrength = { level: 0 | 1 | 2 | 3; words: string };

/**
 * A hint, not a rule: the agent checks only the minimum length. Long phrases of several words
 * beat short ones with symbols, so length counts most.
 */
export function passphraseStrength(passphrase: string): PassphraseStrength {
  if (passphrase.length < MIN_BACKUP_PASSPHRASE_LENGTH) {
    return { level: 0, words: `Too short: use at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters` };
  }
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(passphrase)).length;
  const distinct = new Set(passphrase).size;
  let score = passphrase.length >= 20 ? 2 : passphrase.length >= 14 ? 1 : 0;
  if (kinds >= 3) score += 1;
  if (distinct < 6) score = 0;
  if (score >= 2) return { level: 3, words: 'Strong' };
  if (score === 1) return { level: 2, words: 'Fair: a few more words make it strong' };
  return { level: 1, words: 'Weak: longer is better, such as four or five unrelated words' };
}
