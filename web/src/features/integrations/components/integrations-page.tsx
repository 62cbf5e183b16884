import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, ExternalLink, RefreshCw, XCircle } from 'lucide-react';
import { Link } from 'wouter';
import type { Integration, IntegrationTestResult } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill, type PillTone } from '@/components/ui/status-pill';
import { useAuth } from '@/features/auth';
import { ErrorCard, HaPage } from '@/features/home-assistant/components/ha-common';
import { useNow } from '@/features/home-assistant/components/entities-page';
import { relativeTime } from '@/features/home-assistant/entity-logic';
import { errorMessage } from '@/lib/request';
import { integrationsQueryOptions, useTestIntegration } from '@/data/integrations';

const STATE: Record<Integration['state'], { word: string; tone: PillTone }> = {
  connected: { word: 'Connected', tone: 'good' },
  degraded: { word: 'Degraded', tone: 'warning' },
  disconnected: { word: 'Not reachable', tone: 'bad' },
  not_configured: { word: 'Not set up', tone: 'neutral' },
};

function TestResult({ result }: { result: IntegrationTestResult }) {
  const Icon = result.ok ? CheckCircle2 : XCircle;
  return (
    <p
      role="status"
      className={`flex items-start gap-2 text-sm ${result.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-destructive'}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {result.message}
    </p>
  );
}

function IntegrationCard({
  integration,
  isAdmin,
  now,
}: {
  integration: Integration;
  isAdmin: boolean;
  now: number;
}) {
  const test = useTestIntegration();
  const { word, tone } = STATE[integration.state];
  const headingId = `integration-${integration.id}`;
  return (
    <Card
      role="region"
      aria-labelledby={headingId}
      data-integration={integration.id}
      className="flex flex-col"
    >
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div className="min-w-0">
          <CardTitle id={headingId} className="text-base">
            {integration.name}
          </CardTitle>
          <CardDescription>{integration.unlocks}</CardDescription>
        </div>
        <StatusPill tone={tone} data-state={integration.state}>
          {word}
        </StatusPill>
      </CardHeader>
      <CardContent className="grid flex-1 gap-2 text-sm">
        <p>{integration.detail}</p>
        <p className="text-xs text-muted-foreground">
          Checked{' '}
          <time dateTime={integration.checkedAt} title={new Date(integration.checkedAt).toLocaleString()}>
            {relativeTime(integration.checkedAt, now)}
          </time>
        </p>
        {test.data ? <TestResult result={test.data} /> : null}
        {test.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(test.error)}
          </p>
        ) : null}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {isAdmin && integration.testable ? (
          <Button
            size="sm"
            variant="outline"
            disabled={test.isPending}
            onClick={() => test.mutate(integration.id)}
          >
            <RefreshCw aria-hidden="true" className={test.isPending ? 'animate-spin' : undefined} />
            {test.isPending ? 'Testing…' : 'Test now'}
            <span className="sr-only"> {integration.name}</span>
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" asChild>
          <Link href={integration.settingsHref}>
            <ExternalLink aria-hidden="true" />
            Settings<span className="sr-only"> for {integration.name}</span>
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

export function IntegrationsPage() {
  const { isAdmin } = useAuth();
  const query = useQuery(integrationsQueryOptions());
  const now = useNow();
  return (
    <HaPage
      title="Integrations"
      description="Every service the hub works with: whether it answers, what it unlocks and where to set it up."
    >
      <RefreshError what="the integrations" query={query} />
      {query.isPending ? (
        <div
          className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
          aria-busy="true"
          aria-label="Checking integrations"
        >
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-44 w-full" />
          ))}
        </div>
      ) : query.isLoadingError ? (
        <ErrorCard title="The integrations could not be checked" error={query.error} />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {query.data.integrations.map((i) => (
            <IntegrationCard key={i.id} integration={i} isAdmin={isAdmin} now={now} />
          ))}
        </div>
      )}
    </HaPage>
  );
}
