import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle } from 'lucide-react';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { automationDetailQueryOptions, errorLine, useSaveAutomation } from '@/data/home-assistant';
import { YamlEditor } from './yaml-editor';

/** What a new automation starts from: HA's current keys, ready to edit. */
export const NEW_AUTOMATION_YAML = `alias: Porch light at sunset
description: Turns the porch light on when the sun sets
mode: single
triggers:
  - trigger: sun
    event: sunset
conditions: []
actions:
  - action: light.turn_on
    target:
      entity_id: light.porch
`;

export function AutomationEditor({ id, onClose }: { id?: string; onClose: () => void }) {
  const detail = useQuery({ ...automationDetailQueryOptions(id ?? ''), enabled: id !== undefined });
  const initial = id === undefined ? NEW_AUTOMATION_YAML : detail.data?.yaml;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>
            {id ? `Edit ${detail.data?.automation.alias ?? 'automation'}` : 'New automation'}
          </DialogTitle>
          <DialogDescription>
            The automation in Home Assistant&apos;s YAML. The hub checks it before Home Assistant gets it.
          </DialogDescription>
        </DialogHeader>
        {id !== undefined ? <RefreshError what="the automation" query={detail} /> : null}
        {initial !== undefined ? (
          <EditorForm id={id} initial={initial} onClose={onClose} />
        ) : detail.isLoadingError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(detail.error)}
          </p>
        ) : (
          <Skeleton className="h-64 w-full" aria-label="Loading the automation" />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The editor once its YAML is known (a new one's template, or the stored config). */
function EditorForm({ id, initial, onClose }: { id?: string; initial: string; onClose: () => void }) {
  const save = useSaveAutomation();
  const [yaml, setYaml] = useState(initial);
  const errorId = useId();
  const line = save.isError ? errorLine(save.error) : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          { id, yaml },
          {
            onSuccess: (saved) => {
              toast({ title: `${saved.alias || 'Automation'} saved` });
              onClose();
            },
          },
        );
      }}
      className="grid gap-4"
    >
      <div>
        <YamlEditor
          label="Automation YAML"
          value={yaml}
          onChange={(v) => {
            setYaml(v);
            if (save.isError) save.reset();
          }}
          errorLine={line}
          describedBy={save.isError ? errorId : undefined}
        />
        {save.isError ? (
          <p id={errorId} role="alert" className="mt-2 flex items-start gap-2 text-sm text-destructive">
            <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {errorMessage(save.error)}
          </p>
        ) : null}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
