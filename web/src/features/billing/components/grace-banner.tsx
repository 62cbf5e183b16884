import { Clock } from 'lucide-react';
import { Link } from 'wouter';
import { PLANS, type SubscriptionStatus } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TONE_TEXT_CLASS } from '@/lib/status-words';
import { formatDate, graceBanner } from '../billing-logic';

/**
 * Issue 22: an expired licence keeps working for its grace period, with this banner, where the
 * trial banner would be (the dashboard's subscription card and /billing).
 */
export function GraceBanner({
  status,
  showRenew = true,
}: {
  status: SubscriptionStatus;
  showRenew?: boolean;
}) {
  const grace = graceBanner(status);
  if (!grace) return null;
  return (
    <Alert variant="warning" data-testid="grace-banner">
      <Clock aria-hidden="true" />
      <AlertTitle className={TONE_TEXT_CLASS.warning}>Licence in its grace period</AlertTitle>
      <AlertDescription>
        <p>
          Your licence expired on{' '}
          <time dateTime={grace.expiredOn.toISOString()} className="font-medium">
            {formatDate(grace.expiredOn)}
          </time>
          ; it keeps working until{' '}
          <time dateTime={grace.worksUntil.toISOString()} className="font-medium">
            {formatDate(grace.worksUntil)}
          </time>
          . After that the hub falls back to {PLANS.free.name}; nothing is deleted.
        </p>
        {showRenew ? (
          <Button asChild size="sm" className="mt-1">
            <Link href="/checkout">Renew {PLANS[grace.plan].name}</Link>
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
