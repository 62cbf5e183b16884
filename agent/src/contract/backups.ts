import { z } from 'zod';

/**
 * Whole-hub backups (issue 20): the database (SQLite's online backup), secret.key, and every other
 * file of the data directory (wake-word samples, flows' files), sealed with a passphrase the owner
 * chooses, into one `.nexusbackup` file.
 */

export const BACKUP_FILE_EXTENSION = '.nexusbackup';
/** The shortest passphrase accepted: it is all that protects the secrets inside a backup. */
export const MIN_BACKUP_PASSPHRASE_LENGTH = 10;
export const MAX_BACKUP_PASSPHRASE_LENGTH = 1024;
/** The largest backup a restore accepts as an upload. */
export const MAX_BACKUP_UPLOAD_BYTES = 4 * 1024 * 1024 * 1024;

export const backupPassphraseSchema = z
  .string()
  .min(
    MIN_BACKUP_PASSPHRASE_LENGTH,
    `Use a passphrase of at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters`,
  )
  .max(MAX_BACKUP_PASSPHRASE_LENGTH);

/** Backup ids are their file names without the extension: letters, digits and dashes only. */
export const backupIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'Not a backup id');
export const backupParamSchema = z.object({ id: backupIdSchema });

/** POST /api/backups */
export const createBackupInputSchema = z.object({ passphrase: backupPassphraseSchema }).strict();
export type CreateBackupInput = z.infer<typeof createBackupInputSchema>;

/** POST /api/backups answers this (201). */
export const createdBackupSchema = z.object({
  id: backupIdSchema,
  createdAt: z.string(),
  size: z.number().int().nonnegative(),
});
export type CreatedBackup = z.infer<typeof createdBackupSchema>;

/** One backup file in the backup folder, as its plaintext header describes it (no passphrase needed). */
export const backupSummarySchema = createdBackupSchema.extend({
  /** 'manual' from the console, 'scheduled' from the daily job, 'before-update' before the hub updates itself. */
  trigger: z.enum(['manual', 'scheduled', 'before-update']),
  /** The hub that made it (its name) and the agent version. */
  hubName: z.string(),
  appVersion: z.string(),
  /** The folder it lives in. */
  directory: z.string(),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupScheduleSchema = z.object({
  enabled: z.boolean(),
  /** Local hour of day (0–23) at which the daily backup runs. */
  hour: z.number().int().min(0).max(23),
  /** How many scheduled backups to keep; older ones are deleted after a successful new one. */
  keep: z.number().int().min(1).max(365),
  /** Absolute path of the folder (or a USB disk's mount point) backups are written to. */
  directory: z.string().min(1).max(4096),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

/** GET /api/backups/schedule: the schedule, and whether a passphrase for scheduled runs is stored (never the passphrase). */
export const backupScheduleViewSchema = backupScheduleSchema.extend({
  hasPassphrase: z.boolean(),
});
export type BackupScheduleView = z.infer<typeof backupScheduleViewSchema>;

/** PUT /api/backups/schedule. `passphrase` (write-only) is needed to enable the schedule the first time. */
export const backupScheduleInputSchema = backupScheduleSchema
  .extend({ passphrase: backupPassphraseSchema.optional() })
  .strict();
export type BackupScheduleInput = z.infer<typeof backupScheduleInputSchema>;

/** The last run of a backup (scheduled or manual), for the console, onboarding and notifications. */
export const backupRunSchema = z.object({
  at: z.string(),
  trigger: z.enum(['manual', 'scheduled', 'before-update']),
  ok: z.boolean(),
  /** The backup made, or why it failed, in words. */
  id: backupIdSchema.nullable(),
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

/** GET /api/backups */
export const backupListSchema = z.object({
  backups: z.array(backupSummarySchema),
  schedule: backupScheduleViewSchema,
  lastRun: backupRunSchema.nullable(),
  /** Folders under /media and /mnt (USB disks) the owner may pick, with free space. */
  destinations: z.array(z.object({ path: z.string(), freeBytes: z.number().nullable() })),
  /** A restore waiting for the owner's confirmation (reversible until confirmed), or null. */
  pendingRestore: z
    .object({
      restoredAt: z.string(),
      /** The backup restored: when it was made and on which hub. */
      backupCreatedAt: z.string(),
      hubName: z.string(),
    })
    .nullable(),
});
export type BackupList = z.infer<typeof backupListSchema>;

/**
 * POST /api/backups/restore (admin) and POST /api/setup/restore (a fresh hub, from the home
 * network): multipart with `file` and `passphrase`. Checked fully (passphrase, integrity, version)
 * before anything changes; then the agent restarts into the restored state and answers 202 first.
 */
export const restoreAcceptedSchema = z.object({
  restarting: z.literal(true),
  backupCreatedAt: z.string(),
  hubName: z.string(),
});
export type RestoreAccepted = z.infer<typeof restoreAcceptedSchema>;

/** POST /api/backups/restore/confirm (admin of the restored hub): the replaced data is deleted for good. */
export const restoreConfirmedSchema = z.object({ confirmed: z.literal(true) });
/** POST /api/backups/restore/revert (202): the agent restarts with the data from before the restore. */
export const restoreRevertingSchema = z.object({ restarting: z.literal(true) });
