import { useQuery } from '@tanstack/react-query';
import { ExternalLink, KeyRound, Store } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { PLAN_IDS, PLANS, planIdSchema, type Plan, type SubscriptionStatus } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Panel } from '@/components/ui/panel';
import { LoadError, RowsSkeleton } from '@/features/llm/components/section';
import {
  PlanFeatures,
  PlanLimitsTable,
  PlanPrice,
  PricingPage,
} from '@/features/public/components/pricing-page';
import { cn } from '@/lib/utils';
import { subscriptionStatusQueryOptions } from '@/data/subscription';
import { storeLinkFor } from '../billing-logic';
import { GraceBanner } from './grace-banner';
import { HubId } from './hub-id';
import { LicenceKeyForm } from './licence-key-form';
import { pageContainer } from '@/components/page-container';

const plans: Plan[] = PLAN_IDS.map((id) => PLANS[id]);

/** /pricing: visitors see the public page; signed in, it is the checkout with the current plan marked. */
export function PricingScreen({ signedIn }: { signedIn: boolean }) {
  return signedIn ? <Checkout heading="Pricing" /> : <PricingPage signedIn={false} />;
}

/** /checkout (issue 22): plan cards, the vendor's store, and activating the key it sends back. */
export function CheckoutPage({ signedIn }: { signedIn: boolean }) {
  return signedIn ? <Checkout heading="Checkout" /> : <SignedOutCheckout />;
}

function SignedOutCheckout() {
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <h1 className="text-3xl font-semibold tracking-tight">Checkout</h1>
        <p className="text-muted-foreground">
          A plan is a licence key for your own hub. Sign in to your hub to buy one or to enter the key you
          received.
        </p>
      </header>
      <PlanCards status={undefined} chosen={undefined} />
      <div>
        <Button asChild>
          <Link href="/auth">Sign in to your hub</Link>
        </Button>
      </div>
    </div>
  );
}

function Checkout({ heading }: { heading: string }) {
  const status = useQuery(subscriptionStatusQueryOptions());
  const chosen = planIdSchema.safeParse(new URLSearchParams(useSearch()).get('plan')).data;
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">{heading}</h1>
          <p className="text-muted-foreground">
            Buy a plan from the vendor&apos;s store; it answers with a licence key that you enter here. The
            hub checks the key itself, offline.
          </p>
        </div>
        <Button asChild variant="outline">
          <Link href="/billing">Back to billing</Link>
        </Button>
      </header>
      <RefreshError what="the subscription" query={status} />
      {status.isPending ? (
        <RowsSkeleton rows={6} />
      ) : status.isLoadingError ? (
        <LoadError what="the subscription" query={status} />
      ) : (
        <>
          <GraceBanner status={status.data} showRenew={false} />
          <PlanCards status={status.data} chosen={chosen} />
          {status.data.storeUrl ? null : <NoStore hubId={status.data.hubId} />}
          <Panel
            title="Enter a licence key"
            icon={KeyRound}
            description="Paste the key from the store, or drop the licence file. An activation link opens this on its own."
          >
            <LicenceKeyForm />
          </Panel>
        </>
      )}
      <PlanLimitsTable />
    </div>
  );
}

function NoStore({ hubId }: { hubId: string }) {
  return (
    <Panel title="How to get a licence key" icon={Store} className="scroll-mt-20">
      <div id="get-a-key" className="grid gap-3 text-sm">
        <p>
          This hub has no store configured. Ask your vendor for a licence and give them this hub&apos;s id:
          the key they send back works on this hub only.
        </p>
        <HubId hubId={hubId} />
        <p className="text-muted-foreground">
          They answer with a licence key, a licence file or an activation link. Enter the key or drop the file
          below, or open the link while signed in as an administrator.
        </p>
      </div>
    </Panel>
  );
}

function PlanCards({
  status,
  chosen,
}: {
  status: SubscriptionStatus | undefined;
  chosen: string | undefined;
}) {
  return (
    <ul className="grid gap-4 md:grid-cols-3" aria-label="Plans">
      {plans.map((plan) => {
        const current = status?.plan === plan.id;
        const highlighted = chosen ? chosen === plan.id : plan.id === 'pro';
        return (
          <li key={plan.id}>
            <Card
              className={cn('flex h-full flex-col', highlighted && 'border-primary shadow-md')}
              data-testid={`plan-${plan.id}`}
              aria-current={current || undefined}
            >
              <CardHeader>
                <div className="flex items-center justify-between gap-2">
                  <CardTitle role="heading" aria-level={2} className="text-xl">
                    {plan.name}
                  </CardTitle>
                  {current ? (
                    <Badge variant="success">
                      {status?.status === 'trialing' ? 'Current plan (trial)' : 'Current plan'}
                    </Badge>
                  ) : null}
                </div>
                <PlanPrice plan={plan} />
              </CardHeader>
              <PlanFeatures plan={plan} />
              {status ? (
                <CardFooter>
                  <PlanAction plan={plan} status={status} highlighted={highlighted} />
                </CardFooter>
              ) : null}
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

function PlanAction({
  plan,
  status,
  highlighted,
}: {
  plan: Plan;
  status: SubscriptionStatus;
  highlighted: boolean;
}) {
  if (plan.priceUsd === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {status.plan === 'free' ? 'The plan in force.' : 'Where the hub returns without a licence.'}
      </p>
    );
  }
  const href = storeLinkFor(status.storeUrl, plan.id, window.location.origin);
  if (!href) {
    return (
      <Button asChild className="w-full" variant={highlighted ? 'default' : 'outline'}>
        <a href="#get-a-key">Get a {plan.name} key</a>
      </Button>
    );
  }
  return (
    <Button asChild className="w-full" variant={highlighted ? 'default' : 'outline'}>
      <a href={href} target="_blank" rel="noopener noreferrer">
        Buy {plan.name}
        <ExternalLink aria-hidden="true" />
        <span className="sr-only">(opens the store in a new tab)</span>
      </a>
    </Button>
  );
}
