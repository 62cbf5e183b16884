import type { UseQueryResult } from '@tanstack/react-query';
import { CreditCard, PartyPopper, TriangleAlert } from 'lucide-react';
import { Link } from 'wouter';
import { PLANS, type SubscriptionStatus } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { GraceBanner } from '@/features/billing/components/grace-banner';
import { trialBanner, usagePercent, usageWarning } from '../dashboard-logic';
import { Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge } from '@/components/status-badge';
import { TONE_TEXT_CLASS } from '@/lib/status-words';

const MODEL_CLASS_LABELS = { local: 'Local', cloud: 'Cloud' } as const;

function formatCount(value: number | 'unlimited'): string {
  return value === 'unlimited' ? 'Unlimited' : value.toLocaleString();
}

export function SubscriptionCard({
  query,
  className,
}: {
  query: UseQueryResult<SubscriptionStatus, Error>;
  className?: string;
}) {
  return (
    <QueryCard
      title="Subscription"
      icon={CreditCard}
      source="the subscription status"
      query={query}
      className={className}
      skeletonRows={4}
      badge={(sub) => (
        <div className="flex items-center gap-2">
          <Badge variant="outline">{PLANS[sub.plan].name}</Badge>
          <StatusBadge word={sub.status} />
        </div>
      )}
    >
      {(sub) => <SubscriptionDetails subscription={sub} />}
    </QueryCard>
  );
}

function SubscriptionDetails({ subscription: sub }: { subscription: SubscriptionStatus }) {
  const trial = trialBanner(sub);
  const warning = usageWarning(sub);
  const percent = usagePercent(sub);
  const plan = PLANS[sub.plan];
  return (
    <>
      {trial ? (
        <Alert variant="success">
          <PartyPopper aria-hidden="true" />
          <AlertTitle>Free Trial Active</AlertTitle>
          <AlertDescription>
            <p>
              You are trying {plan.name} until{' '}
              <time dateTime={trial.endDate.toISOString()} className="font-medium">
                {trial.endDate.toLocaleDateString(undefined, {
                  year: 'numeric',
                  month: 'long',
                  day: 'numeric',
                })}
              </time>
              .
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      <GraceBanner status={sub} />
      {warning ? (
        <Alert variant="warning">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle className={TONE_TEXT_CLASS.warning}>
            You have used {warning.percent}% of this month&apos;s AI messages
          </AlertTitle>
          <AlertDescription>
            <p>
              {warning.used.toLocaleString()} of {warning.limit.toLocaleString()} messages on the Free plan.
              Upgrade to Pro for unlimited messages.
            </p>
            <Button asChild size="sm" className="mt-1">
              <Link href="/pricing">Upgrade to Pro</Link>
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-1.5">
        <div className="flex items-center justify-between text-sm">
          <span className="text-muted-foreground">AI messages this month</span>
          <span className="font-medium tabular-nums">
            {sub.usage.aiMessages.toLocaleString()}
            {typeof sub.limits.aiMessages === 'number' ? ` / ${sub.limits.aiMessages.toLocaleString()}` : ''}
          </span>
        </div>
        {percent !== null ? (
          <Progress
            value={percent}
            aria-label={`AI messages used: ${Math.round(percent)}%`}
            indicatorClassName={warning ? 'bg-warning' : undefined}
          />
        ) : null}
      </div>
      <Facts className="sm:grid-cols-2 sm:gap-x-8">
        <Fact label="Remaining messages">{formatCount(sub.usage.remainingMessages)}</Fact>
        <Fact label="Models">{sub.limits.aiModels.map((m) => MODEL_CLASS_LABELS[m]).join(', ')}</Fact>
        <Fact label="Parallel processing">{sub.limits.parallelProcessing ? 'Included' : 'Not included'}</Fact>
        <Fact label="Home Assistant entities">{formatCount(sub.limits.homeAssistantEntities)}</Fact>
        <Fact label="VPN access">{sub.limits.vpnAccess ? 'Included' : 'Not included'}</Fact>
      </Facts>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link href="/billing">Manage billing</Link>
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link href="/pricing">Compare plans</Link>
        </Button>
      </div>
    </>
  );
}
