import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, Fingerprint, KeyRound } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { PLANS } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { LoadError, RowsSkeleton } from '@/features/llm/components/section';
import { subscriptionStatusQueryOptions } from '@/data/subscription';
import { formatDate } from '../billing-logic';
import { Fact, Facts } from '@/components/fact-list';
import { GraceBanner } from './grace-banner';
import { HubId } from './hub-id';
import { LicenceKeyForm } from './licence-key-form';
import { pageContainer } from '@/components/page-container';
import { humanize } from '@/lib/words';

/**
 * /nexus-activation (issue 22): this hub's id, the key field, and the result. The store's
 * activation link, /nexus-activation?key=…, fills the key in and waits for an admin to confirm.
 */
export function ActivationPage() {
  const search = useSearch();
  // Read once: the key stays in the field even if the address changes under the screen.
  const [linkKey] = useState(() => new URLSearchParams(search).get('key')?.trim() ?? '');
  const status = useQuery(subscriptionStatusQueryOptions());
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Nexus Activation</h1>
          <p className="text-muted-foreground">
            Activate a licence on this hub. The key is checked here, offline, against the vendor&apos;s
            signature and this hub&apos;s id.
          </p>
        </div>
        <Button asChild variant="outline">
          <Link href="/checkout">Plans</Link>
        </Button>
      </header>
      <RefreshError what="the subscription" query={status} />
      {status.isPending ? (
        <RowsSkeleton rows={4} />
      ) : status.isLoadingError ? (
        <LoadError what="the subscription" query={status} />
      ) : (
        <>
          <GraceBanner status={status.data} />
          <Panel title="This hub" icon={Fingerprint} description="A licence key names the hub it is for.">
            <HubId hubId={status.data.hubId} />
          </Panel>
          <Panel title="Plan in force" icon={CreditCard}>
            <Facts>
              <Fact label="Plan">
                <span data-testid="activation-plan">{PLANS[status.data.plan].name}</span>
              </Fact>
              <Fact label="Status">{humanize(status.data.status)}</Fact>
              <Fact label="Licence">{status.data.licence?.lid ?? 'None'}</Fact>
              <Fact label="Expires">
                {status.data.licence
                  ? formatDate(status.data.licence.expiresAt)
                  : status.data.status === 'trialing'
                    ? `Trial until ${formatDate(status.data.trialEndDate)}`
                    : '—'}
              </Fact>
            </Facts>
          </Panel>
        </>
      )}
      <Panel title="Activate a licence" icon={KeyRound}>
        <LicenceKeyForm initialKey={linkKey} fromLink={Boolean(linkKey)} />
      </Panel>
    </div>
  );
}
