import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { BACKUP_PATHS, RestoreForm } from '@/features/backups';

/**
 * First boot, instead of a new owner: a new or reset hub takes over an old one from its backup
 * file (POST /api/setup/restore, open only while the hub has no account). After the restart the
 * old hub's accounts sign in.
 */
export function RestoreStep({ onBack }: { onBack: () => void }) {
  return (
    <>
      <div className="grid gap-1">
        <h2 className="text-xl font-semibold">Restore from a backup</h2>
        <p className="text-sm text-muted-foreground">
          Bring back a hub&apos;s accounts, flows, wake words, secrets and settings from its .nexusbackup
          file. The backup is checked before anything is written; then the hub restarts and you sign in with
          the old hub&apos;s account.
        </p>
      </div>
      <RestoreForm
        path={BACKUP_PATHS.setupRestore}
        confirmReplace={false}
        submitLabel="Restore this backup"
        extraActions={
          <Button type="button" variant="ghost" onClick={onBack}>
            <ArrowLeft aria-hidden="true" />
            Back
          </Button>
        }
      />
    </>
  );
}
