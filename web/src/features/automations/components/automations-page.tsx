import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Pencil, Play, Plus, Sparkles, Trash2, Workflow } from 'lucide-react';
import { Link } from 'wouter';
import type { HaAutomation } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { haEntitiesQueryOptions } from '@/data/home-assistant';
import { relativeTime } from '@/features/home-assistant/entity-logic';
import { useHaLive } from '@/data/home-assistant';
import {
  ConnectionBanner,
  ConnectionPill,
  EmptyState,
  ErrorCard,
  HaPage,
  useHaStatus,
} from '@/features/home-assistant/components/ha-common';
import { useNow } from '@/features/home-assistant/components/entities-page';
import { errorMessage } from '@/lib/request';
import { automationsQueryOptions, useAutomationAction, useDeleteAutomation } from '@/data/home-assistant';
import { AutomationEditor } from './automation-editor';

function stateWord(state: string): { word: string; tone: 'good' | 'neutral' | 'bad' } {
  if (state === 'on') return { word: 'Enabled', tone: 'good' };
  if (state === 'off') return { word: 'Disabled', tone: 'neutral' };
  return { word: state === 'unavailable' ? 'Broken config' : state, tone: 'bad' };
}

function MadeBy({ automation }: { automation: HaAutomation }) {
  if (automation.createdBy === 'analytics') {
    return (
      <Badge variant="secondary" className="gap-1">
        <Sparkles aria-hidden="true" className="size-3" />
        From a suggestion
      </Badge>
    );
  }
  if (automation.createdBy === 'console') return <Badge variant="secondary">Made by Nexus</Badge>;
  return null;
}

function AutomationRow({
  automation,
  isAdmin,
  onEdit,
  now,
}: {
  automation: HaAutomation;
  isAdmin: boolean;
  onEdit: (id: string) => void;
  now: number;
}) {
  const action = useAutomationAction();
  const remove = useDeleteAutomation();
  const { word, tone } = stateWord(automation.state);
  const id = automation.id;
  const fail = (what: string) => (error: Error) =>
    toast({
      variant: 'destructive',
      title: `${automation.alias}: ${what} failed`,
      description: errorMessage(error),
    });
  const canAct = isAdmin && id !== null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-automation={automation.entityId}>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{automation.alias}</span>
          <MadeBy automation={automation} />
          {!automation.editable ? <Badge variant="outline">YAML file</Badge> : null}
        </div>
        {automation.description ? (
          <p className="text-sm text-muted-foreground">{automation.description}</p>
        ) : null}
        <p className="text-xs text-muted-foreground">
          <span className="font-mono">{automation.entityId}</span> · Last triggered:{' '}
          {automation.lastTriggered ? (
            <time
              dateTime={automation.lastTriggered}
              title={new Date(automation.lastTriggered).toLocaleString()}
            >
              {relativeTime(automation.lastTriggered, now)}
            </time>
          ) : (
            'never'
          )}
        </p>
      </div>
      <StatusPill tone={tone}>{word}</StatusPill>
      <Switch
        checked={automation.state === 'on'}
        disabled={!canAct || action.isPending || automation.state === 'unavailable'}
        aria-label={`${automation.alias} enabled`}
        title={isAdmin ? undefined : 'Only administrators can turn automations on or off'}
        onCheckedChange={(on) =>
          id &&
          action.mutate(
            { id, action: on ? 'enable' : 'disable' },
            { onError: fail(on ? 'enable' : 'disable') },
          )
        }
      />
      {canAct ? (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={action.isPending}
            onClick={() =>
              action.mutate(
                { id, action: 'trigger' },
                {
                  onSuccess: () => toast({ title: `${automation.alias} ran` }),
                  onError: fail('run'),
                },
              )
            }
          >
            <Play aria-hidden="true" />
            Run now<span className="sr-only"> {automation.alias}</span>
          </Button>
          <Button size="sm" variant="outline" onClick={() => onEdit(id)}>
            <Pencil aria-hidden="true" />
            Edit<span className="sr-only"> {automation.alias}</span>
          </Button>
          <ConfirmButton
            size="sm"
            variant="outline"
            destructive
            question={`Delete ${automation.alias}?`}
            description="Home Assistant removes it from its automations. This cannot be undone."
            confirmLabel="Delete"
            disabled={remove.isPending}
            onConfirm={() =>
              remove.mutate(id, {
                onSuccess: () => toast({ title: `${automation.alias} deleted` }),
                onError: fail('delete'),
              })
            }
          >
            <Trash2 aria-hidden="true" />
            Delete<span className="sr-only"> {automation.alias}</span>
          </ConfirmButton>
        </div>
      ) : null}
    </li>
  );
}

export function AutomationsPage() {
  const { isAdmin } = useAuth();
  const status = useHaStatus();
  const connected = status.data?.state === 'connected';
  const query = useQuery({ ...automationsQueryOptions(), enabled: connected });
  // HA runs and switches automations on its own too: the live entity list (ha.entities) carries
  // their state and last_triggered between the list's reads.
  useHaLive(connected);
  const live = useQuery({ ...haEntitiesQueryOptions(), enabled: connected }).data;
  const withLive = (a: HaAutomation): HaAutomation => {
    const entity = live?.entities.find((e) => e.entity_id === a.entityId);
    if (!entity) return a;
    const last = entity.attributes.last_triggered;
    return {
      ...a,
      state: entity.state,
      lastTriggered: typeof last === 'string' && last ? new Date(last).toISOString() : a.lastTriggered,
    };
  };
  // null: closed; '': a new one; otherwise the id being edited.
  const [editing, setEditing] = useState<string | null>(null);
  const now = useNow();

  return (
    <HaPage
      title="Automations"
      description="Home Assistant's automations: what runs on its own, when it last ran, and switches to pause it."
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          {isAdmin && connected ? (
            <Button onClick={() => setEditing('')}>
              <Plus aria-hidden="true" />
              New automation
            </Button>
          ) : null}
        </>
      }
    >
      <ConnectionBanner status={status.data} />
      {status.data && status.data.state !== 'connected' ? null : (
        <RefreshError what="the automations" query={query} />
      )}
      {status.data && status.data.state !== 'connected' ? (
        <EmptyState title="Automations need Home Assistant">
          <p>
            The hub reads and writes automations through Home Assistant.{' '}
            <Link href="/ha-connection-setup" className="underline underline-offset-4">
              Connect Home Assistant
            </Link>
            .
          </p>
        </EmptyState>
      ) : query.isPending ? (
        <Card aria-busy="true" aria-label="Loading automations">
          <CardContent className="grid gap-3 pt-6">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </CardContent>
        </Card>
      ) : query.isLoadingError ? (
        <ErrorCard title="The automations could not be loaded" error={query.error} />
      ) : query.data.automations.length === 0 ? (
        <EmptyState title="No automations yet">
          {isAdmin ? (
            <p>
              Choose <strong>New automation</strong> and describe it in YAML: a trigger (say, sunset), and
              actions (turn on the porch light). Automations made in Home Assistant show up here too.
            </p>
          ) : (
            <p>An administrator can add them here or in Home Assistant.</p>
          )}
        </EmptyState>
      ) : (
        <Card role="region" aria-label="Automations">
          <CardContent className="pt-2">
            {!isAdmin ? (
              <p className="pt-4 text-sm text-muted-foreground">
                <Workflow aria-hidden="true" className="mr-1 inline size-4" />
                You can see the automations; administrators change them.
              </p>
            ) : null}
            <ul className="divide-y">
              {query.data.automations.map((a) => (
                <AutomationRow
                  key={a.entityId}
                  automation={withLive(a)}
                  isAdmin={isAdmin}
                  onEdit={setEditing}
                  now={now}
                />
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      {editing !== null ? (
        <AutomationEditor id={editing || undefined} onClose={() => setEditing(null)} />
      ) : null}
    </HaPage>
  );
}
