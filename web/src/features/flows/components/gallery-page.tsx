import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus, Workflow } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import {
  FLOW_TEMPLATES,
  STAGE_KIND_LABELS,
  TRIGGER_LABELS,
  type FlowDefinitionInput,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { flowsQueryOptions, useCreateFlow } from '@/data/flows';
import { HomeNetworkAccessCard } from './home-network-card';
import { RunStatusPill } from './run-view';
import { RelatedLinks } from '@/components/related-links';
import { pageContainer } from '@/components/page-container';

export const builderPath = (id: number) => `/advanced-pipeline?flow=${id}`;

const BLANK_FLOW: FlowDefinitionInput = {
  name: 'Untitled flow',
  description: '',
  trigger: { type: 'webhook' },
  stages: [],
};

/** The FlowForge gallery (/flowforge, /studio, /gallery): your flows and the templates to start from. */
export function GalleryPage() {
  const flows = useQuery(flowsQueryOptions());
  const create = useCreateFlow();
  const [, navigate] = useLocation();
  const { isAdmin } = useAuth();

  function start(definition: FlowDefinitionInput) {
    create.mutate(definition, {
      onSuccess: (flow) => navigate(builderPath(flow.id)),
      onError: (error) =>
        toast({ title: 'Could not create the flow', description: error.message, variant: 'destructive' }),
    });
  }

  return (
    <div className={pageContainer('grid gap-8')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">FlowForge Gallery</h1>
          <p className="text-muted-foreground">
            Build AI flows: a trigger (voice, API, schedule or webhook), then stages that listen, think and
            act.
          </p>
          <RelatedLinks
            links={[
              { label: 'Advanced pipeline', href: '/advanced-pipeline' },
              { label: 'Session simulations', href: '/session-simulations' },
            ]}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <Link href="/flowforge/api-keys">
              <KeyRound aria-hidden="true" /> API keys
            </Link>
          </Button>
          <Button onClick={() => start(BLANK_FLOW)} disabled={create.isPending}>
            <Plus aria-hidden="true" /> New flow
          </Button>
        </div>
      </header>

      <section aria-labelledby="your-flows" className="grid gap-3">
        <h2 id="your-flows" className="text-lg font-semibold">
          Your flows
        </h2>
        <RefreshError what="your flows" query={flows} />
        {flows.isPending ? (
          <div
            className="grid gap-3 md:grid-cols-2 lg:grid-cols-3"
            aria-busy="true"
            aria-label="Loading flows"
          >
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-36" />
            ))}
          </div>
        ) : flows.isLoadingError ? (
          <p className="text-sm text-destructive">Could not load your flows: {flows.error.message}</p>
        ) : flows.data.length === 0 ? (
          <div className="grid justify-items-center gap-2 rounded-lg border border-dashed p-8 text-center">
            <Workflow aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="font-medium">No flows yet</p>
            <p className="max-w-md text-sm text-muted-foreground">
              Start from one of the templates below, or create a blank flow and add its stages in the builder.
            </p>
          </div>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2 lg:grid-cols-3">
            {flows.data.map((flow) => (
              <li key={flow.id}>
                <Card className="h-full">
                  <CardHeader>
                    <CardTitle className="flex items-center justify-between gap-2">
                      <Link href={builderPath(flow.id)} className="hover:underline">
                        {flow.name}
                      </Link>
                      <StatusPill tone={flow.status === 'active' ? 'good' : 'neutral'}>
                        {flow.status === 'active' ? 'Active' : 'Draft'}
                      </StatusPill>
                    </CardTitle>
                    <CardDescription>
                      {flow.description || `${TRIGGER_LABELS[flow.trigger.type]} trigger`}
                    </CardDescription>
                  </CardHeader>
                  <CardContent className="flex flex-wrap gap-1">
                    <Badge variant="outline">{TRIGGER_LABELS[flow.trigger.type]}</Badge>
                    {flow.stageKinds.length === 0 ? (
                      <span className="text-xs text-muted-foreground">No stages yet</span>
                    ) : (
                      flow.stageKinds.map((kind, i) => (
                        <Badge key={i} variant="secondary">
                          {STAGE_KIND_LABELS[kind]}
                        </Badge>
                      ))
                    )}
                  </CardContent>
                  <CardFooter className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
                    <span>
                      v{flow.version} · {flow.ownerName}
                    </span>
                    {flow.lastRun ? <RunStatusPill status={flow.lastRun.status} /> : <span>Never run</span>}
                  </CardFooter>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="templates" className="grid gap-3">
        <h2 id="templates" className="text-lg font-semibold">
          Templates
        </h2>
        <ul className="grid gap-3 md:grid-cols-3">
          {FLOW_TEMPLATES.map((template) => (
            <li key={template.id}>
              <Card className="h-full">
                <CardHeader>
                  <CardTitle>{template.title}</CardTitle>
                  <CardDescription>{template.summary}</CardDescription>
                </CardHeader>
                {/* On a fresh hub a template's first run fails without these: say so before, with the fix. */}
                <CardContent className="text-sm">
                  <p className="text-muted-foreground">Needs:</p>
                  <ul className="grid gap-0.5">
                    {template.needs.map((need) => (
                      <li key={need.href}>
                        <Link href={need.href} className="text-primary underline-offset-4 hover:underline">
                          {need.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </CardContent>
                <CardFooter>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => start(template.flow)}
                    disabled={create.isPending}
                    aria-label={`Use the template ${template.title}`}
                  >
                    Use template
                  </Button>
                </CardFooter>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      {isAdmin ? <HomeNetworkAccessCard /> : null}
    </div>
  );
}
