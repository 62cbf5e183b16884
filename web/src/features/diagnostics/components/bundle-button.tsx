import { useMutation } from '@tanstack/react-query';
import { Download, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { downloadDiagnosticsBundle } from '@/data/diagnostics';

/** Admins download the host facts, recent metrics and the agent's recent logs (secrets redacted) as one JSON file. */
export function BundleButton() {
  const download = useMutation({
    mutationFn: downloadDiagnosticsBundle,
    onSuccess: (fileName) =>
      toast({
        title: 'Diagnostics bundle downloaded',
        description: `Saved as ${fileName}. Secrets are redacted.`,
      }),
    onError: (error) =>
      toast({
        title: "Couldn't create the diagnostics bundle",
        description: errorMessage(error) ?? 'The agent did not answer.',
        variant: 'destructive',
      }),
  });
  return (
    <Button onClick={() => download.mutate()} disabled={download.isPending}>
      {download.isPending ? (
        <Loader2 aria-hidden="true" className="animate-spin" />
      ) : (
        <Download aria-hidden="true" />
      )}
      {download.isPending ? 'Preparing bundle…' : 'Download diagnostics bundle'}
    </Button>
  );
}
