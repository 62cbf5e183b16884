import { useQuery } from '@tanstack/react-query';
import { Network, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { outboundAllowEntrySchema } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { outboundSettingsQueryOptions, useSaveOutboundSettings } from '@/data/settings';

/**
 * Admins only: which addresses on the home network flows' HTTP request stages may reach. Without
 * an entry a stage reaches public addresses only (the agent refuses the rest); each change is saved
 * at once.
 */
export function HomeNetworkAccessCard() {
  const id = useId();
  const settings = useQuery(outboundSettingsQueryOptions(true));
  const save = useSaveOutboundSettings();
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const entries = settings.data?.allowList ?? [];

  function store(allowList: string[], done: string) {
    save.mutate(
      { allowList },
      {
        onSuccess: () => {
          toast({ title: 'Allow-list saved', description: done });
          setEntry('');
          setError(null);
        },
        onError: (e) => setError(errorMessage(e) ?? 'Could not save the allow-list'),
      },
    );
  }

  function add(e: FormEvent) {
    e.preventDefault();
    const parsed = outboundAllowEntrySchema.safeParse(entry);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Write host:port');
      return;
    }
    if (entries.includes(parsed.data)) {
      setError(`${parsed.data} is already allowed`);
      return;
    }
    store([...entries, parsed.data], `Allowed ${parsed.data}`);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2} className="flex items-center gap-2 text-lg">
          <Network aria-hidden="true" className="size-5 text-primary" />
          Home network access
        </CardTitle>
        <CardDescription>
          HTTP request stages reach public addresses only: not this hub, the router or other devices at home,
          nor cloud metadata services. Allow the ones flows need as host:port, e.g. 192.168.1.20:8123,
          printer.local:631 or a range such as 192.168.1.0/24:80. Only administrators see this list.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="flex flex-wrap items-end gap-2" onSubmit={add} noValidate>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-entry`}>Address and port</Label>
            <Input
              id={`${id}-entry`}
              className="w-72 max-w-full font-mono"
              value={entry}
              placeholder="192.168.1.20:8123"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => {
                setEntry(e.target.value);
                setError(null);
              }}
            />
          </div>
          <Button type="submit" variant="outline" disabled={save.isPending || settings.isPending}>
            <Plus aria-hidden="true" /> Allow
          </Button>
        </form>
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <RefreshError what="the allow-list" query={settings} />
        {settings.isPending ? (
          <Skeleton className="h-16" aria-label="Loading the allow-list" />
        ) : settings.isLoadingError ? (
          <p className="text-sm text-destructive">
            Could not load the allow-list: {errorMessage(settings.error)}
          </p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing allowed: flows reach public addresses only.</p>
        ) : (
          <ul aria-label="Allowed addresses" className="grid gap-1">
            {entries.map((allowed) => (
              <li
                key={allowed}
                className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5"
              >
                <code className="text-sm">{allowed}</code>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${allowed}`}
                  disabled={save.isPending}
                  onClick={() =>
                    store(
                      entries.filter((e) => e !== allowed),
                      `Removed ${allowed}`,
                    )
                  }
                >
                  <Trash2 aria-hidden="true" /> Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
