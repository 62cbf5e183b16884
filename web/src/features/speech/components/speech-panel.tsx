import { AlertCircle, RefreshCw } from 'lucide-react';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/request';
import { useAuth } from '@/features/auth';
import { useSpeechSettings } from '@/data/speech';
import { FormSkeleton } from './speech-section';
import { SpeechSettingsForm } from './speech-settings-form';
import { SpeechTryIt } from './speech-try-it';

/** The AI control screen's Speech tab: the speech services the flows use, and a place to try them. */
export function SpeechPanel() {
  const settings = useSpeechSettings();
  const { isAdmin } = useAuth();
  if (settings.isPending) return <FormSkeleton rows={6} />;
  if (settings.isLoadingError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm">
        <p className="flex items-start gap-2 text-destructive">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          Couldn&apos;t load the speech services: {errorMessage(settings.error)}
        </p>
        <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      <RefreshError what="the speech services" query={settings} />
      <SpeechSettingsForm key={settings.data.updatedAt ?? 'new'} settings={settings.data} canEdit={isAdmin} />
      <SpeechTryIt settings={settings.data} />
    </div>
  );
}
