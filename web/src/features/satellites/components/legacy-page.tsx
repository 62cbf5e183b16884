import { useQuery } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  SATELLITE_HEARTBEAT_INTERVAL_MS,
  SATELLITE_OFFLINE_AFTER_MS,
  type Satellite,
  type SatelliteWithToken,
} from '@nexus/agent/contract';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { StatusPill } from '@/components/ui/status-pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/features/auth';
import { SATELLITES_API, satellitesQueryOptions } from '@/data/satellites';
import { AddSatelliteDialog } from './add-satellite-dialog';
import { SatelliteActions } from './satellite-actions';
import { STATUS_PILL, formatAgo, isWeakSignal } from './satellite-format';
import { ReportingSummary, SatelliteListStates } from './satellite-list-states';
import { TokenReveal } from './token-reveal';
import { pageContainer } from '@/components/page-container';

const HEARTBEAT_SECONDS = SATELLITE_HEARTBEAT_INTERVAL_MS / 1000;
const OFFLINE_SECONDS = SATELLITE_OFFLINE_AFTER_MS / 1000;

/**
 * /satellite-management-legacy: the custom devices that speak the Nexus satellite API (a token and a
 * heartbeat), their health and, for admins, their tokens. Home Assistant and Wyoming satellites are
 * in the fleet at /satellite-management.
 */
export function SatelliteManagementLegacyPage() {
  const { isAdmin } = useAuth();
  const list = useQuery({
    ...satellitesQueryOptions(),
    select: (all: Satellite[]) => all.filter((s) => s.source === 'nexus'),
  });
  const [rotated, setRotated] = useState<SatelliteWithToken | null>(null);

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Satellite Management (Legacy)</h1>
          <p className="max-w-3xl text-sm text-muted-foreground">
            Custom voice devices on the Nexus satellite API: each has a token and sends{' '}
            <code className="font-mono text-xs">POST {SATELLITES_API}/&lt;id&gt;/heartbeat</code> with{' '}
            <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code> every{' '}
            {HEARTBEAT_SECONDS} seconds, with its signal strength, wake word and firmware. It shows offline
            after {OFFLINE_SECONDS} seconds without one; this list refreshes itself every {HEARTBEAT_SECONDS}{' '}
            seconds. Satellite1 and Voice PE devices come from Home Assistant, and Raspberry Pi satellites
            over Wyoming: both are in the{' '}
            <Link href="/satellite-management" className="underline underline-offset-4">
              satellite fleet
            </Link>
            .
          </p>
        </div>
        {isAdmin ? <AddSatelliteDialog /> : null}
      </header>

      <SatelliteListStates list={list} empty={<EmptyState isAdmin={isAdmin} />}>
        {(satellites, checkedAt) => (
          <SatelliteTable
            satellites={satellites}
            checkedAt={checkedAt}
            isAdmin={isAdmin}
            onTokenIssued={setRotated}
          />
        )}
      </SatelliteListStates>

      <Dialog
        open={rotated !== null}
        onOpenChange={(open) => {
          if (!open) setRotated(null);
        }}
      >
        <DialogContent
          className="max-w-2xl"
          // The token is never shown again: a stray click beside the dialog must not throw it away.
          onInteractOutside={(event) => event.preventDefault()}
          hideCloseButton
        >
          {rotated ? <TokenReveal issued={rotated} rotated onDone={() => setRotated(null)} /> : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

function EmptyState({ isAdmin }: { isAdmin: boolean }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
        <span className="grid size-10 place-items-center rounded-full bg-primary/10 text-primary">
          <Radio aria-hidden="true" className="size-5" />
        </span>
        <h2 className="font-semibold">No Nexus satellites yet</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          {isAdmin
            ? 'Add a Nexus satellite with the button above and put the token it gets on the device. It appears online here with its first heartbeat.'
            : 'Ask an admin of this hub to add one. Satellites show here with their status, signal and wake word once they check in.'}
        </p>
      </CardContent>
    </Card>
  );
}

function SatelliteTable({
  satellites,
  checkedAt,
  isAdmin,
  onTokenIssued,
}: {
  satellites: Satellite[];
  checkedAt: number;
  isAdmin: boolean;
  onTokenIssued: (issued: SatelliteWithToken) => void;
}) {
  return (
    <Card>
      <CardContent className="grid gap-3 p-4">
        <ReportingSummary satellites={satellites} checkedAt={checkedAt} />
        <Table label="Nexus satellites">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Signal</TableHead>
              <TableHead>Wake word</TableHead>
              <TableHead>Firmware</TableHead>
              <TableHead>IP address</TableHead>
              <TableHead>Last seen</TableHead>
              {isAdmin ? (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {satellites.map((satellite) => (
              <SatelliteRow
                key={satellite.id}
                satellite={satellite}
                checkedAt={checkedAt}
                isAdmin={isAdmin}
                onTokenIssued={onTokenIssued}
              />
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function SatelliteRow({
  satellite,
  checkedAt,
  isAdmin,
  onTokenIssued,
}: {
  satellite: Satellite;
  checkedAt: number;
  isAdmin: boolean;
  onTokenIssued: (issued: SatelliteWithToken) => void;
}) {
  const pill = STATUS_PILL[satellite.status];
  const none = (text: string) => <span className="text-muted-foreground">{text}</span>;
  return (
    <TableRow data-satellite={satellite.name}>
      <TableCell>
        <div className="font-medium">{satellite.name}</div>
        {satellite.room ? <div className="text-xs text-muted-foreground">{satellite.room}</div> : null}
      </TableCell>
      <TableCell>
        <StatusPill tone={pill.tone}>{pill.word}</StatusPill>
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">
        {satellite.signalStrength === null ? (
          none('No reading')
        ) : (
          <>
            <span>{satellite.signalStrength} dBm</span>
            {isWeakSignal(satellite.signalStrength) ? (
              <span className="ml-1 text-xs text-muted-foreground">(weak)</span>
            ) : null}
          </>
        )}
      </TableCell>
      <TableCell>{satellite.activeWakeWord ?? none('None')}</TableCell>
      <TableCell className="font-mono text-xs">{satellite.firmwareVersion ?? none('Unknown')}</TableCell>
      <TableCell className="font-mono text-xs">{satellite.ipAddress ?? none('Unknown')}</TableCell>
      <TableCell className="whitespace-nowrap">
        {satellite.lastSeen ? (
          <time dateTime={satellite.lastSeen} title={new Date(satellite.lastSeen).toLocaleString()}>
            {formatAgo(satellite.lastSeen, checkedAt)}
          </time>
        ) : (
          none('Never')
        )}
      </TableCell>
      {isAdmin ? (
        <TableCell>
          <SatelliteActions satellite={satellite} onTokenIssued={onTokenIssued} />
        </TableCell>
      ) : null}
    </TableRow>
  );
}
