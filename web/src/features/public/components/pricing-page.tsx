import { useId } from 'react';
import { Check, Minus } from 'lucide-react';
import { Link } from 'wouter';
import {
  PLAN_IDS,
  PLANS,
  TRIAL_DAYS,
  TRIAL_PLAN,
  UNLIMITED,
  USAGE_WARNING_RATIO,
  type Plan,
  type PlanLimits,
} from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { Prose, PublicPage } from './page-layout';

const plans: Plan[] = PLAN_IDS.map((id) => PLANS[id]);

const count = (value: number | typeof UNLIMITED) =>
  value === UNLIMITED ? 'Unlimited' : value.toLocaleString();

/** The limits table's rows, each read from the plan table the agent enforces. */
const LIMIT_ROWS: { label: string; value: (limits: PlanLimits) => string | boolean }[] = [
  { label: 'AI messages a month', value: (l) => count(l.aiMessages) },
  {
    label: 'Models',
    value: (l) => l.aiModels.map((kind) => (kind === 'local' ? 'Local' : 'Cloud')).join(' and '),
  },
  { label: 'Models configured at once', value: (l) => count(l.maxModels) },
  { label: 'Parallel processing', value: (l) => l.parallelProcessing },
  { label: 'Home Assistant entities', value: (l) => count(l.homeAssistantEntities) },
  { label: 'VPN access', value: (l) => l.vpnAccess },
];

/** /pricing (spec §9): Free $0, Pro $29, Max $79, and what each plan's limits are. */
export function PricingPage({ signedIn }: { signedIn: boolean }) {
  const ctaFor = (plan: Plan) => {
    if (!signedIn)
      return { label: plan.priceUsd === 0 ? 'Get Started' : `Start with ${plan.name}`, href: '/auth' };
    if (plan.priceUsd === 0) return { label: 'See your plan', href: '/billing' };
    return { label: `Choose ${plan.name}`, href: `/checkout?plan=${plan.id}` };
  };

  return (
    <PublicPage
      className="max-w-6xl"
      title="Pricing"
      intro={`Every plan runs on your own hub. A new hub starts with a ${TRIAL_DAYS}-day trial of ${PLANS[TRIAL_PLAN].name}, then continues on Free unless you choose a plan.`}
    >
      <ul className="grid gap-4 md:grid-cols-3">
        {plans.map((plan) => {
          const cta = ctaFor(plan);
          const featured = plan.id === 'pro';
          return (
            <li key={plan.id}>
              <Card
                className={cn('flex h-full flex-col', featured && 'border-primary shadow-md')}
                data-testid={`plan-${plan.id}`}
              >
                <CardHeader>
                  <div className="flex items-center justify-between">
                    <CardTitle role="heading" aria-level={2} className="text-xl">
                      {plan.name}
                    </CardTitle>
                    {featured && <Badge>Recommended</Badge>}
                  </div>
                  <PlanPrice plan={plan} />
                </CardHeader>
                <PlanFeatures plan={plan} />
                <CardFooter>
                  <Button className="w-full" variant={featured ? 'default' : 'outline'} asChild>
                    <Link href={cta.href}>{cta.label}</Link>
                  </Button>
                </CardFooter>
              </Card>
            </li>
          );
        })}
      </ul>

      <PlanLimitsTable className="mt-12" />

      <Prose className="mt-10">
        <p>
          On Free, once you have used {Math.round(USAGE_WARNING_RATIO * 100)}% of the month's AI messages the
          console offers an upgrade to Pro for unlimited messages. Prices are in US dollars per month.
        </p>
      </Prose>
    </PublicPage>
  );
}

/** Every plan's limits, read from the plan table the agent enforces (also on the signed-in checkout). */
/** A plan card's price line, under its title (pricing and checkout show the same cards). */
export function PlanPrice({ plan }: { plan: Plan }) {
  return (
    <CardDescription>
      <span className="text-4xl font-semibold tracking-tight text-foreground">${plan.priceUsd}</span> / month
    </CardDescription>
  );
}

/** A plan card's list of what the plan includes. */
export function PlanFeatures({ plan }: { plan: Plan }) {
  return (
    <CardContent className="flex-1">
      <ul className="space-y-2 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            {feature}
          </li>
        ))}
      </ul>
    </CardContent>
  );
}

export function PlanLimitsTable({ className }: { className?: string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2 id={headingId} className="mb-4 text-xl font-semibold tracking-tight">
        Plan limits
      </h2>
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full min-w-[32rem] text-sm">
          <thead className="bg-muted/50">
            <tr>
              <th scope="col" className="px-4 py-2 text-left font-medium">
                Limit
              </th>
              {plans.map((plan) => (
                <th key={plan.id} scope="col" className="px-4 py-2 text-left font-medium">
                  {plan.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {LIMIT_ROWS.map((row) => (
              <tr key={row.label} className="border-t">
                <th scope="row" className="px-4 py-2 text-left font-normal text-muted-foreground">
                  {row.label}
                </th>
                {plans.map((plan) => {
                  const value = row.value(plan.limits);
                  return (
                    <td key={plan.id} className="px-4 py-2">
                      {typeof value === 'boolean' ? (
                        value ? (
                          <Check role="img" aria-label="Included" className="size-4 text-success" />
                        ) : (
                          <Minus
                            role="img"
                            aria-label="Not included"
                            className="size-4 text-muted-foreground"
                          />
                        )
                      ) : (
                        value
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
