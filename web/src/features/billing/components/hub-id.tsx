import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';

/** This hub's id, which a licence key names: the owner gives it to the vendor to get a key. */
export function HubId({ hubId }: { hubId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code className="rounded bg-muted px-2 py-1 font-mono text-sm break-all" data-testid="hub-id">
        {hubId}
      </code>
      <Button
        type="button"
        size="sm"
        variant="outline"
        onClick={() => {
          if (!navigator.clipboard) {
            toast({ title: 'Copying is not available here', description: 'Select the id and copy it.' });
            return;
          }
          void navigator.clipboard.writeText(hubId).then(
            () => toast({ title: 'Hub id copied' }),
            () => toast({ title: 'Could not copy', description: 'Select the id and copy it.' }),
          );
        }}
      >
        <Copy aria-hidden="true" />
        Copy hub id
      </Button>
    </div>
  );
}
