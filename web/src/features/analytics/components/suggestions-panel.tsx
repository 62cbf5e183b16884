import { Check, Copy, Lightbulb, Plus, X } from 'lucide-react';
import { Link } from 'wouter';
import type { Suggestion } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Panel } from '@/components/ui/panel';
import { toast } from '@/components/ui/use-toast';
import { useCreateAutomationFromSuggestion, useDismissSuggestion, useSuggestions } from '@/data/analytics';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { Empty, Loading } from './shared';
import { LoadError } from '@/components/load-state';

/** Strong patterns as Home Assistant automations: read the YAML, then create it (admins) or dismiss it. */
export function SuggestionsPanel() {
  const suggestions = useSuggestions();
  const list = suggestions.data?.suggestions;
  const shown = list?.filter((s) => s.status !== 'dismissed') ?? [];
  const dismissed = list?.filter((s) => s.status === 'dismissed') ?? [];
  return (
    <Panel
      title="Suggested automations"
      icon={Lightbulb}
      description="Each strong routine or sequence, written as a Home Assistant automation."
    >
      {list ? (
        <>
          {shown.length ? (
            <ul aria-label="Suggestions" className="grid gap-3" data-testid="analytics-suggestions">
              {shown.map((s) => (
                <SuggestionItem key={s.id} suggestion={s} />
              ))}
            </ul>
          ) : (
            <Empty>
              {dismissed.length
                ? 'Every suggestion so far has been dismissed. New ones appear as new patterns are learnt.'
                : 'No suggestion yet: they appear once a routine or a sequence is strong enough to automate.'}
            </Empty>
          )}
          {dismissed.length ? (
            <details className="rounded-lg border p-3 text-sm" data-testid="analytics-dismissed">
              <summary className="cursor-pointer font-medium">Dismissed ({dismissed.length})</summary>
              <ul aria-label="Dismissed suggestions" className="mt-2 grid gap-1 text-muted-foreground">
                {dismissed.map((s) => (
                  <li key={s.id}>{s.title}</li>
                ))}
              </ul>
            </details>
          ) : null}
        </>
      ) : suggestions.error ? (
        <LoadError what="the suggestions" query={suggestions} />
      ) : (
        <Loading label="Loading the suggestions" />
      )}
    </Panel>
  );
}

function SuggestionItem({ suggestion }: { suggestion: Suggestion }) {
  const { isAdmin } = useAuth();
  const create = useCreateAutomationFromSuggestion();
  const dismiss = useDismissSuggestion();
  const busy = create.isPending || dismiss.isPending;
  const fail = (what: string) => (error: unknown) =>
    toast({ title: `Could not ${what}`, description: errorMessage(error), variant: 'destructive' });

  return (
    <li className="grid gap-3 rounded-lg border p-3 text-sm" data-suggestion={suggestion.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {suggestion.title}
            <Badge variant="secondary">{suggestion.patternKind === 'routine' ? 'Routine' : 'Sequence'}</Badge>
            {suggestion.status === 'created' ? <Badge variant="outline">Created</Badge> : null}
          </p>
          <p className="text-muted-foreground">{suggestion.description}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {suggestion.status === 'created' ? (
            <Button asChild variant="outline" size="sm">
              <Link href="/automations">
                <Check aria-hidden="true" />
                View in Automations<span className="sr-only">: {suggestion.title}</span>
              </Link>
            </Button>
          ) : isAdmin ? (
            <>
              <ConfirmButton
                size="sm"
                question="Create this automation in Home Assistant?"
                description={
                  <>
                    &ldquo;{suggestion.automation.alias}&rdquo; is added to Home Assistant&apos;s automations
                    and runs from now on. You can pause or delete it on the Automations screen.
                  </>
                }
                confirmLabel="Create automation"
                disabled={busy}
                onConfirm={() =>
                  create.mutate(suggestion.id, {
                    onSuccess: () =>
                      toast({ title: `${suggestion.automation.alias} created in Home Assistant` }),
                    onError: fail('create the automation'),
                  })
                }
              >
                <Plus aria-hidden="true" />
                Create automation<span className="sr-only">: {suggestion.title}</span>
              </ConfirmButton>
              <Button
                size="sm"
                variant="ghost"
                disabled={busy}
                onClick={() => dismiss.mutate(suggestion.id, { onError: fail('dismiss the suggestion') })}
              >
                <X aria-hidden="true" />
                Dismiss<span className="sr-only">: {suggestion.title}</span>
              </Button>
            </>
          ) : null}
        </div>
      </div>
      <details className="group rounded-md border bg-muted/40">
        <summary className="cursor-pointer px-3 py-2 font-medium">
          YAML<span className="sr-only"> of {suggestion.title}</span>
        </summary>
        <div className="relative border-t">
          <CopyButton text={suggestion.yaml} what={suggestion.title} />
          <pre
            className="overflow-x-auto p-3 font-mono text-xs leading-relaxed"
            tabIndex={0}
            aria-label={`YAML of ${suggestion.title}`}
          >
            <code>{suggestion.yaml}</code>
          </pre>
        </div>
      </details>
    </li>
  );
}

function CopyButton({ text, what }: { text: string; what: string }) {
  return (
    <Button
      size="sm"
      variant="outline"
      className="absolute top-2 right-2"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => toast({ title: 'YAML copied' }),
          (error: unknown) =>
            toast({ title: 'Could not copy', description: errorMessage(error), variant: 'destructive' }),
        )
      }
    >
      <Copy aria-hidden="true" />
      Copy<span className="sr-only"> the YAML of {what}</span>
    </Button>
  );
}
