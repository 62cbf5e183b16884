import { useState } from 'react';
import { Database, PlugZap, RefreshCw } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { AnalyticsStatus } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { Progress } from '@/components/ui/progress';
import { StatusPill } from '@/components/ui/status-pill';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { useAnalyticsStatus, useMineNow } from '@/data/analytics';
import { useAuth } from '@/features/auth';
import {
  ConnectionBanner,
  ConnectionPill,
  useHaStatus,
} from '@/features/home-assistant/components/ha-common';
import { errorMessage } from '@/lib/request';
import {
  MIN_PATTERN_DAYS,
  SPLIT_PATTERN_DAYS,
  backfillPercent,
  historyDays,
  historyStage,
  sectionForPath,
  type AnalyticsSection,
} from '../analytics-logic';
import { HeatmapPanel } from './heatmap-panel';
import { AnomaliesPanel, RoutinesPanel } from './routines-panel';
import { PredictionsPanel } from './predictions-panel';
import { SequencesPanel } from './sequences-panel';
import { SettingsPanel } from './settings-panel';
import { Empty, Loading } from './shared';
import { LoadError } from '@/components/load-state';
import { SuggestionsPanel } from './suggestions-panel';
import { TimelinePanel } from './timeline-panel';

/**
 * Behavioral Intelligence (issue 16; spec §2: /behavioral-analytics, /pattern-analysis,
 * /ha-pattern-predictor): the household's routines, sequences, anomalies and next-hour
 * predictions mined on the hub from Home Assistant's history, and automations drawn from them.
 */
export function AnalyticsPage() {
  const [path] = useLocation();
  const { isAdmin } = useAuth();
  const ha = useHaStatus();
  const status = useAnalyticsStatus();
  const [section, setSection] = useState<AnalyticsSection>(() =>
    sectionForPath(path, isAdmin, typeof window === 'undefined' ? '' : window.location.hash),
  );
  const haConnected = ha.data?.state === 'connected';
  // Without Home Assistant and without stored history there is nothing to show but the way to connect.
  const noHistory = !status.data || status.data.events === 0;
  const needsHa =
    ha.data !== undefined && ha.data.state === 'not_configured' && noHistory && !status.isPending;

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-6 px-4 py-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Behavioral Intelligence</h1>
          <p className="text-muted-foreground">
            Your home&apos;s routines learnt from Home Assistant&apos;s history, what is likely to happen next
            and automations drawn from them. Everything is worked out and kept on the hub.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {ha.data ? <ConnectionPill status={ha.data} /> : null}
          {isAdmin && !needsHa ? <MineNowButton /> : null}
        </div>
      </header>
      {needsHa ? (
        <ConnectHa isAdmin={isAdmin} />
      ) : (
        <>
          {ha.data && ha.data.state !== 'not_configured' ? <ConnectionBanner status={ha.data} /> : null}
          <HistoryPanel status={status.data} error={status.error} haConnected={haConnected} />
          <Tabs
            value={section}
            onValueChange={(v) => setSection(v as AnalyticsSection)}
            className="grid gap-4"
          >
            <TabsList className="justify-self-start" aria-label="Sections">
              <TabsTrigger value="routines">Routines</TabsTrigger>
              <TabsTrigger value="patterns">Patterns</TabsTrigger>
              <TabsTrigger value="predictions">Predictions</TabsTrigger>
              {isAdmin ? <TabsTrigger value="settings">Settings</TabsTrigger> : null}
            </TabsList>
            <TabsContent value="routines" className="grid gap-6">
              <RoutinesPanel stage={status.data ? historyStage(status.data) : null} />
              <AnomaliesPanel />
            </TabsContent>
            <TabsContent value="patterns" className="grid gap-6">
              <HeatmapPanel />
              <TimelinePanel />
              <SequencesPanel />
            </TabsContent>
            <TabsContent value="predictions" className="grid gap-6">
              <PredictionsPanel />
              <SuggestionsPanel />
            </TabsContent>
            {isAdmin ? (
              <TabsContent value="settings" className="grid gap-6">
                <SettingsPanel />
              </TabsContent>
            ) : null}
          </Tabs>
        </>
      )}
    </div>
  );
}

function ConnectHa({ isAdmin }: { isAdmin: boolean }) {
  return (
    <Panel title="Connect Home Assistant first" icon={PlugZap}>
      <div data-testid="analytics-needs-ha" className="grid gap-3 text-sm">
        <p>
          Routines and predictions are learnt from Home Assistant&apos;s history of your devices. Once the hub
          is connected, it reads the past weeks of history and keeps following changes live.
        </p>
        {isAdmin ? (
          <Button asChild className="w-fit">
            <Link href="/ha-connection-setup">Set up the Home Assistant connection</Link>
          </Button>
        ) : (
          <p className="text-muted-foreground">Ask an administrator of the hub to connect Home Assistant.</p>
        )}
      </div>
    </Panel>
  );
}

function MineNowButton() {
  const mine = useMineNow();
  return (
    <Button
      variant="outline"
      disabled={mine.isPending}
      onClick={() =>
        mine.mutate(undefined, {
          onSuccess: () => toast({ title: 'Patterns mined again' }),
          onError: (error) =>
            toast({
              title: 'Could not mine the patterns',
              description: errorMessage(error),
              variant: 'destructive',
            }),
        })
      }
    >
      <RefreshCw
        aria-hidden="true"
        className={mine.isPending ? 'animate-spin motion-reduce:animate-none' : ''}
      />
      {mine.isPending ? 'Mining…' : 'Mine now'}
    </Button>
  );
}

const dateWords = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const timeWords = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** How much history the patterns stand on, and whether it is still growing. */
function HistoryPanel({
  status,
  error,
  haConnected,
}: {
  status: AnalyticsStatus | undefined;
  error: unknown;
  haConnected: boolean;
}) {
  const progress = status ? backfillPercent(status) : null;
  return (
    <Panel
      title="History"
      icon={Database}
      description="The state changes kept on the hub that the patterns are learnt from."
      actions={
        status ? (
          <StatusPill
            tone={status.live ? 'good' : 'neutral'}
            pulse={status.live}
            data-testid="analytics-live"
          >
            {status.live ? 'Recording live' : 'Not recording'}
          </StatusPill>
        ) : null
      }
    >
      {status ? (
        <>
          <dl
            className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-5"
            data-testid="analytics-history"
          >
            <Fact label="Changes">{status.events.toLocaleString()}</Fact>
            <Fact label="Days">{historyDays(status)}</Fact>
            <Fact label="Entities">{status.entities.toLocaleString()}</Fact>
            <Fact label="Oldest">{status.oldest ? dateWords(status.oldest) : '—'}</Fact>
            <Fact label="Mined at">{status.minedAt ? timeWords(status.minedAt) : 'Not yet'}</Fact>
          </dl>
          {progress !== null && status.backfill ? (
            <div className="grid gap-1.5">
              <p className="text-sm" id="analytics-backfill-label">
                Reading Home Assistant&apos;s history: {status.backfill.done} of {status.backfill.total}{' '}
                entities
              </p>
              <Progress value={progress} aria-labelledby="analytics-backfill-label" />
            </div>
          ) : null}
          <StageNote status={status} haConnected={haConnected} />
        </>
      ) : error ? (
        <LoadError what="the history" error={error} />
      ) : (
        <Loading label="Loading the history" rows={1} />
      )}
    </Panel>
  );
}

function StageNote({ status, haConnected }: { status: AnalyticsStatus; haConnected: boolean }) {
  const stage = historyStage(status);
  if (stage.kind === 'empty') {
    return (
      <Empty>
        No history yet.{' '}
        {haConnected
          ? 'The hub is reading it from Home Assistant and records every change from now on.'
          : 'It is read from Home Assistant once the hub is connected to it.'}{' '}
        Routines appear after {MIN_PATTERN_DAYS} days of history.
      </Empty>
    );
  }
  if (stage.kind === 'collecting') {
    return (
      <Empty>
        History is still being collected: {stage.days} of the {stage.needed} days routines need. Weekday and
        weekend routines are told apart from {SPLIT_PATTERN_DAYS} days on.
      </Empty>
    );
  }
  return null;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="space-y-0.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{children}</dd>
    </div>
  );
}
