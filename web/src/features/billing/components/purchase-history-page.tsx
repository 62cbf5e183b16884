import { useQuery } from '@tanstack/react-query';
import { Download, Receipt } from 'lucide-react';
import { Link } from 'wouter';
import { PLANS, type LicenceRecord } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/features/auth';
import { EmptyState, LoadError, RowsSkeleton } from '@/features/llm/components/section';
import { licencesQueryOptions, receiptUrl } from '@/data/subscription';
import { LICENCE_STATE_LABELS, formatDate } from '../billing-logic';
import { pageContainer } from '@/components/page-container';

const STATE_VARIANT: Record<LicenceRecord['state'], BadgeProps['variant']> = {
  'in-force': 'success',
  grace: 'warning',
  expired: 'outline',
  replaced: 'secondary',
  deactivated: 'outline',
};

/** /purchase-history (issue 22): every licence activated on this hub, each with its receipt. */
export function PurchaseHistoryPage() {
  const { isAdmin } = useAuth();
  const licences = useQuery(licencesQueryOptions());
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Purchase History</h1>
          <p className="text-muted-foreground">
            Every licence activated on this hub, newest first, with its receipt.
            {isAdmin ? '' : ' Receipts carry the licence key, so only administrators download them.'}
          </p>
        </div>
        <Button asChild variant="outline">
          <Link href="/billing">Back to billing</Link>
        </Button>
      </header>
      <Panel title="Licences" icon={Receipt}>
        <RefreshError what="the purchase history" query={licences} />
        {licences.isPending ? (
          <RowsSkeleton rows={4} />
        ) : licences.isLoadingError ? (
          <LoadError what="the purchase history" query={licences} />
        ) : licences.data.length === 0 ? (
          <EmptyState icon={Receipt} title="No licences yet">
            Licences you activate on this hub are listed here, each with its receipt.{' '}
            <Link href="/checkout" className="font-medium text-foreground underline">
              See the plans
            </Link>
            .
          </EmptyState>
        ) : (
          <Table label="Licences activated on this hub">
            <TableHeader>
              <TableRow>
                <TableHead>Plan</TableHead>
                <TableHead>Licence id</TableHead>
                <TableHead>Issued</TableHead>
                <TableHead>Activated</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>State</TableHead>
                <TableHead className="text-right">Receipt</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {licences.data.map((l) => (
                <TableRow key={`${l.lid}-${l.activatedAt}`} data-testid={`licence-${l.lid}`}>
                  <TableCell className="font-medium">{PLANS[l.plan].name}</TableCell>
                  <TableCell>
                    <code className="font-mono text-xs">{l.lid}</code>
                  </TableCell>
                  <TableCell>{formatDate(l.issuedAt)}</TableCell>
                  <TableCell>{formatDate(l.activatedAt)}</TableCell>
                  <TableCell>{formatDate(l.expiresAt)}</TableCell>
                  <TableCell>
                    <Badge variant={STATE_VARIANT[l.state]}>{LICENCE_STATE_LABELS[l.state]}</Badge>
                    {l.deactivatedAt ? (
                      <span className="ml-2 text-xs text-muted-foreground">
                        on {formatDate(l.deactivatedAt)}
                      </span>
                    ) : null}
                  </TableCell>
                  <TableCell className="text-right">
                    {isAdmin ? (
                      <Button asChild size="sm" variant="outline">
                        <a href={receiptUrl(l.lid)} download>
                          <Download aria-hidden="true" />
                          Receipt<span className="sr-only"> for licence {l.lid}</span>
                        </a>
                      </Button>
                    ) : (
                      <span className="text-xs text-muted-foreground">Administrators only</span>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Panel>
    </div>
  );
}
