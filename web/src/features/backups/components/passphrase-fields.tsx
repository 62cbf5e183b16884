import { useId } from 'react';
import { TriangleAlert } from 'lucide-react';
import { MIN_BACKUP_PASSPHRASE_LENGTH } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { passphraseStrength } from '@/data/backups';

export interface PassphraseValue {
  passphrase: string;
  confirm: string;
}

/** What is wrong with a new passphrase and its confirmation, in words; null when it may be used. */
export function passphraseProblem({ passphrase, confirm }: PassphraseValue): string | null {
  if (passphrase.length < MIN_BACKUP_PASSPHRASE_LENGTH) {
    return `Use a passphrase of at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters.`;
  }
  if (passphrase !== confirm) return 'The two passphrases do not match.';
  return null;
}

const BAR = ['bg-destructive', 'bg-destructive', 'bg-warning', 'bg-success'] as const;

/**
 * A new backup passphrase, typed twice, with a strength hint and the warning that nobody can
 * recover it: the hub never keeps it in a form that opens a backup elsewhere.
 */
export function NewPassphraseFields({
  value,
  onChange,
  label = 'Passphrase',
  disabled,
}: {
  value: PassphraseValue;
  onChange: (value: PassphraseValue) => void;
  label?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const strength = passphraseStrength(value.passphrase);
  return (
    <div className="grid gap-3">
      <Alert variant="warning">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>Keep this passphrase somewhere safe</AlertTitle>
        <AlertDescription>
          A backup opens only with its passphrase. If it is lost, nobody (not the hub, not support) can
          recover it, and the backup cannot be restored.
        </AlertDescription>
      </Alert>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-passphrase`}>{label}</Label>
        <Input
          id={`${id}-passphrase`}
          type="password"
          autoComplete="new-password"
          required
          disabled={disabled}
          value={value.passphrase}
          aria-describedby={`${id}-strength`}
          onChange={(event) => onChange({ ...value, passphrase: event.target.value })}
        />
        <div className="flex items-center gap-2">
          <div className="flex h-1.5 w-24 gap-0.5" aria-hidden="true">
            {[1, 2, 3].map((step) => (
              <span
                key={step}
                className={cn(
                  'flex-1 rounded-full',
                  value.passphrase && strength.level >= step ? BAR[strength.level] : 'bg-muted',
                )}
              />
            ))}
          </div>
          <p id={`${id}-strength`} className="text-xs text-muted-foreground" aria-live="polite">
            {value.passphrase ? strength.words : `At least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters`}
          </p>
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-confirm`}>Type the passphrase again</Label>
        <Input
          id={`${id}-confirm`}
          type="password"
          autoComplete="new-password"
          required
          disabled={disabled}
          value={value.confirm}
          onChange={(event) => onChange({ ...value, confirm: event.target.value })}
        />
      </div>
    </div>
  );
}
