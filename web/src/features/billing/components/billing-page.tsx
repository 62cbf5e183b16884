import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { BarChart3, CreditCard, Gauge, History, PartyPopper, ShoppingCart, Unplug } from 'lucide-react';
import { Link } from 'wouter';
import { PLANS, type LicenceRecord, type SubscriptionStatus } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Panel } from '@/components/ui/panel';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { StatusBadge } from '@/components/status-badge';
import { trialBanner } from '@/features/dashboard/dashboard-logic';
import { LoadError, RowsSkeleton } from '@/features/llm/components/section';
import { errorMessage } from '@/lib/request';
import {
  USAGE_DAYS,
  licencesQueryOptions,
  subscriptionStatusQueryOptions,
  useDeactivateLicence,
  usageQueryOptions,
} from '@/data/subscription';
import { LICENCE_STATE_LABELS, fallbackAfterDeactivation, formatDate, usageTotals } from '../billing-logic';
import { Fact, Facts } from '@/components/fact-list';
import { GraceBanner } from './grace-banner';
import { LimitBars } from './limit-bars';
import { UsageChart } from './usage-chart';
import { RelatedLinks } from '@/components/related-links';
import { pageContainer } from '@/components/page-container';
import { humanize } from '@/lib/words';

/** /billing (issue 22): the plan in force, its licence, this month's use and the last 30 days. */
export function BillingPage() {
  const status = useQuery(subscriptionStatusQueryOptions());
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Billing</h1>
          <p className="text-muted-foreground">
            Your plan, its licence and this month&apos;s use. Plans are licences checked on the hub itself: it
            never needs to call anyone.
          </p>
          <RelatedLinks links={[{ label: 'Activate a licence key', href: '/nexus-activation' }]} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <Link href="/checkout">
              <ShoppingCart aria-hidden="true" />
              Change plan
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link href="/purchase-history">
              <History aria-hidden="true" />
              Purchase history
            </Link>
          </Button>
        </div>
      </header>
      <RefreshError what="the subscription" query={status} />
      {status.isPending ? (
        <RowsSkeleton rows={6} />
      ) : status.isLoadingError ? (
        <LoadError what="the subscription" query={status} />
      ) : (
        <>
          <GraceBanner status={status.data} />
          <PlanPanel status={status.data} />
          <UsagePanels />
        </>
      )}
    </div>
  );
}

function PlanPanel({ status }: { status: SubscriptionStatus }) {
  const { isAdmin } = useAuth();
  const licences = useQuery(licencesQueryOptions());
  const trial = trialBanner(status);
  const plan = PLANS[status.plan];
  const licence = status.licence;
  const record: LicenceRecord | undefined = licence
    ? licences.data?.find((l) => l.lid === licence.lid)
    : undefined;
  return (
    <Panel
      title="Plan"
      icon={CreditCard}
      actions={
        <div className="flex items-center gap-2">
          <Badge variant="outline" data-testid="current-plan">
            {plan.name}
          </Badge>
          <StatusBadge word={status.status} />
        </div>
      }
    >
      {trial ? (
        <Alert variant="success">
          <PartyPopper aria-hidden="true" />
          <AlertTitle>Free Trial Active</AlertTitle>
          <AlertDescription>
            <p>
              You are trying {plan.name} until{' '}
              <time dateTime={trial.endDate.toISOString()} className="font-medium">
                {formatDate(trial.endDate)}
              </time>
              . Then the hub continues on {PLANS.free.name} unless you activate a licence.
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      <Facts>
        <Fact label="Plan">
          {plan.name} (${plan.priceUsd} / month)
        </Fact>
        <Fact label="Status">{humanize(status.status)}</Fact>
        <Fact label={status.status === 'trialing' ? 'Trial ends' : 'Trial ended'}>
          {formatDate(status.trialEndDate)}
        </Fact>
        <Fact label={licence?.inGrace ? 'Expired on' : 'Renewal or expiry'}>
          {licence ? formatDate(licence.expiresAt) : '—'}
        </Fact>
        <Fact label="Usage period from">{formatDate(status.periodStart)}</Fact>
        <Fact label="Hub id">
          <code className="font-mono text-xs">{status.hubId}</code>
        </Fact>
      </Facts>
      {licence ? (
        <section aria-labelledby="licence-heading" className="grid gap-3">
          <h3 id="licence-heading" className="font-semibold">
            Licence
          </h3>
          <Facts>
            <Fact label="Licence id">
              <span data-testid="licence-lid">{licence.lid}</span>
            </Fact>
            <Fact label="Licensed plan">{PLANS[licence.plan].name}</Fact>
            <Fact label="Hub">
              <code className="font-mono text-xs">{record?.hub ?? status.hubId}</code>
            </Fact>
            <Fact label="State">
              {record ? LICENCE_STATE_LABELS[record.state] : licence.inGrace ? 'In grace period' : 'In force'}
            </Fact>
            <Fact label="Issued">{formatDate(record?.issuedAt)}</Fact>
            <Fact label="Activated">{formatDate(record?.activatedAt)}</Fact>
            <Fact label="Expires">{formatDate(licence.expiresAt)}</Fact>
            {licence.graceEndsAt ? <Fact label="Works until">{formatDate(licence.graceEndsAt)}</Fact> : null}
          </Facts>
          {isAdmin ? <DeactivateButton status={status} /> : null}
        </section>
      ) : (
        <p className="text-sm text-muted-foreground">
          No licence is active on this hub.{' '}
          <Link href="/checkout" className="font-medium text-foreground underline">
            Buy one or enter a key
          </Link>
          .
        </p>
      )}
    </Panel>
  );
}

function DeactivateButton({ status }: { status: SubscriptionStatus }) {
  const deactivate = useDeactivateLicence();
  // The time the screen opened is close enough to say whether the trial still runs.
  const [openedAt] = useState(() => Date.now());
  const fallback = fallbackAfterDeactivation(status, openedAt);
  return (
    <div>
      <ConfirmButton
        variant="outline"
        size="sm"
        destructive
        disabled={deactivate.isPending}
        question="Deactivate this licence?"
        confirmLabel="Deactivate licence"
        description={
          <>
            The hub goes back to {fallback.plan}
            {fallback.until ? ` (until ${formatDate(fallback.until)}, then ${PLANS.free.name})` : ''}. Nothing
            is deleted: conversations, models, flows, entities and settings all stay. What goes past{' '}
            {PLANS.free.name}&apos;s limits becomes read-only until a licence is active again, and the
            home&apos;s lights, voice and automations keep working. The licence stays in the purchase history.
          </>
        }
        onConfirm={() =>
          deactivate.mutate(undefined, {
            onSuccess: () => toast({ title: 'Licence deactivated' }),
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Could not deactivate the licence',
                description: errorMessage(error),
              }),
          })
        }
      >
        <Unplug aria-hidden="true" />
        Deactivate licence
      </ConfirmButton>
    </div>
  );
}

function UsagePanels() {
  const usage = useQuery(usageQueryOptions(USAGE_DAYS));
  const body = (render: (data: NonNullable<typeof usage.data>) => ReactNode) =>
    usage.isPending ? (
      <RowsSkeleton rows={4} />
    ) : usage.isLoadingError ? (
      <LoadError what="the usage" query={usage} />
    ) : (
      render(usage.data)
    );
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <RefreshError what="the usage" query={usage} className="lg:col-span-2" />
      <Panel
        title="Usage this month"
        icon={Gauge}
        description="Only messages answered by cloud models count; models on this hub are never limited."
      >
        {body((data) => (
          <LimitBars limits={data.limits} />
        ))}
      </Panel>
      <Panel
        title={`AI messages, last ${USAGE_DAYS} days`}
        icon={BarChart3}
        description="Per day, cloud and local models."
      >
        {body((data) => {
          const totals = usageTotals(data.days);
          return (
            <>
              <UsageChart days={data.days} />
              {totals.cloud + totals.local === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No AI messages in the last {USAGE_DAYS} days. Chat with a model and the use shows up here.
                </p>
              ) : null}
            </>
          );
        })}
      </Panel>
    </div>
  );
}
