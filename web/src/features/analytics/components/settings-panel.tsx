import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Settings2, Trash2, X } from 'lucide-react';
import type { AnalyticsSettings } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { toast } from '@/components/ui/use-toast';
import { useAnalyticsSettings, useDeleteHistory, useSaveAnalyticsSettings } from '@/data/analytics';
import { haEntitiesQueryOptions } from '@/data/home-assistant';
import { errorMessage } from '@/lib/request';
import { entityMatches, parseRetention } from '../analytics-logic';
import { Loading, selectClass } from './shared';
import { LoadError } from '@/components/load-state';

/** Admin only: how long history is kept, which entities are never recorded, and deleting it. */
export function SettingsPanel() {
  const settings = useAnalyticsSettings(true);
  return (
    <Panel
      title="Recording"
      icon={Settings2}
      description="History stays on the hub. Choose how long it is kept and what is never recorded."
    >
      {settings.data ? (
        // A new answer (a save, or another admin's) starts the form afresh from what the agent holds.
        <SettingsForm key={settings.dataUpdatedAt} saved={settings.data} />
      ) : settings.error ? (
        <LoadError what="the settings" query={settings} />
      ) : (
        <Loading label="Loading the settings" rows={2} />
      )}
      <DeleteHistory />
    </Panel>
  );
}

function useEntityList() {
  const ha = useQuery(haEntitiesQueryOptions());
  return (ha.data?.entities ?? []).map((e) => ({ entityId: e.entity_id, name: e.name }));
}

function SettingsForm({ saved }: { saved: AnalyticsSettings }) {
  const id = useId();
  const save = useSaveAnalyticsSettings();
  const entities = useEntityList();
  const [retention, setRetention] = useState(String(saved.retentionDays));
  const [excluded, setExcluded] = useState<string[]>(saved.excludedEntities);
  const [filter, setFilter] = useState('');
  const [touched, setTouched] = useState(false);

  const parsed = parseRetention(retention);
  const nameOf = (entityId: string) => entities.find((e) => e.entityId === entityId)?.name ?? entityId;
  const matches = filter.trim() ? entityMatches(entities, filter, excluded, 8) : [];
  const added = excluded.filter((e) => !saved.excludedEntities.includes(e));

  return (
    <form
      className="grid gap-4"
      aria-label="Recording settings"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!parsed.ok) return;
        // mutateAsync: a save makes the settings answer new, which remounts this form (its key), and
        // react-query drops the callbacks of an unmounted mutate.
        save.mutateAsync({ retentionDays: parsed.days, excludedEntities: excluded }).then(
          () => toast({ title: 'Recording settings saved' }),
          (error: unknown) =>
            toast({ title: 'Could not save', description: errorMessage(error), variant: 'destructive' }),
        );
      }}
    >
      <div className="grid max-w-xs gap-1.5">
        <Label htmlFor={`${id}-retention`}>Keep history for (days)</Label>
        <Input
          id={`${id}-retention`}
          inputMode="numeric"
          value={retention}
          onChange={(e) => setRetention(e.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={touched && !parsed.ok ? true : undefined}
          aria-describedby={`${id}-retention-hint${touched && !parsed.ok ? ` ${id}-retention-error` : ''}`}
        />
        <p id={`${id}-retention-hint`} className="text-xs text-muted-foreground">
          Older changes are deleted every day. Routines need a few weeks; 90 days is the default.
        </p>
        {touched && !parsed.ok ? (
          <p id={`${id}-retention-error`} className="text-sm text-destructive">
            {parsed.error}
          </p>
        ) : null}
      </div>

      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Never record</legend>
        <p className="text-xs text-muted-foreground">
          Their history is deleted when you save, and their changes are ignored from then on.
        </p>
        {excluded.length ? (
          <ul aria-label="Excluded entities" className="flex flex-wrap gap-2">
            {excluded.map((entityId) => (
              <li
                key={entityId}
                className="flex items-center gap-1 rounded-md border bg-muted/40 py-0.5 pr-0.5 pl-2 text-sm"
              >
                {nameOf(entityId)} <span className="text-muted-foreground">({entityId})</span>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="size-7"
                  aria-label={`Record ${nameOf(entityId)} again`}
                  onClick={() => setExcluded(excluded.filter((e) => e !== entityId))}
                >
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">Every entity is recorded.</p>
        )}
        <div className="grid max-w-md gap-1.5">
          <Label htmlFor={`${id}-filter`}>Find an entity to exclude</Label>
          <Input
            id={`${id}-filter`}
            type="search"
            value={filter}
            placeholder="e.g. light.kitchen or Kitchen"
            onChange={(e) => setFilter(e.target.value)}
            aria-controls={`${id}-matches`}
          />
          <ul id={`${id}-matches`} aria-label="Matching entities" aria-live="polite" className="grid gap-1">
            {matches.map((e) => (
              <li key={e.entityId}>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="w-full justify-start"
                  onClick={() => {
                    setExcluded([...excluded, e.entityId]);
                    setFilter('');
                  }}
                >
                  Exclude {e.name} <span className="text-muted-foreground">({e.entityId})</span>
                </Button>
              </li>
            ))}
            {filter.trim() && !matches.length ? (
              <li className="text-sm text-muted-foreground">No entity matches &ldquo;{filter}&rdquo;.</li>
            ) : null}
          </ul>
        </div>
      </fieldset>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
        {added.length ? (
          <p className="text-sm text-muted-foreground">
            Saving deletes the history of {added.length} {added.length === 1 ? 'entity' : 'entities'}.
          </p>
        ) : null}
      </div>
    </form>
  );
}

function DeleteHistory() {
  const id = useId();
  const remove = useDeleteHistory();
  const entities = useEntityList();
  const [entity, setEntity] = useState('');
  return (
    <div className="grid gap-2 border-t pt-4">
      <h3 className="text-sm font-medium">Delete history</h3>
      <p className="text-sm text-muted-foreground">
        Deletes the recorded changes on the hub (Home Assistant keeps its own). Patterns are learnt again from
        what is recorded next.
      </p>
      <ConfirmButton
        variant="destructive"
        className="w-fit"
        destructive
        disabled={remove.isPending}
        question={entity ? 'Delete this entity’s history?' : 'Delete all history?'}
        description={
          entity
            ? `Every recorded change of ${entity} is deleted from the hub. This cannot be undone.`
            : 'Every recorded change of every entity is deleted from the hub, and the routines, sequences and suggestions drawn from them go too. This cannot be undone.'
        }
        confirmLabel="Delete history"
        extra={
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-entity`}>History of</Label>
            <select
              id={`${id}-entity`}
              className={selectClass}
              value={entity}
              onChange={(e) => setEntity(e.target.value)}
            >
              <option value="">All entities</option>
              {entities.map((e) => (
                <option key={e.entityId} value={e.entityId}>
                  {e.name} ({e.entityId})
                </option>
              ))}
            </select>
          </div>
        }
        onConfirm={() =>
          remove.mutate(entity || null, {
            onSuccess: (result) =>
              toast({
                title: `History deleted`,
                description: `${result.deleted.toLocaleString()} changes removed.`,
              }),
            onError: (error) =>
              toast({
                title: 'Could not delete the history',
                description: errorMessage(error),
                variant: 'destructive',
              }),
          })
        }
      >
        <Trash2 aria-hidden="true" />
        Delete history…
      </ConfirmButton>
    </div>
  );
}
