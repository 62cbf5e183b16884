import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, Radio, SlidersHorizontal } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Link } from 'wouter';
import type { Satellite } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { StatusPill } from '@/components/ui/status-pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/features/auth';
import { satellitesQueryOptions, useSatellitesLive } from '@/data/satellites';
import { AddSatelliteDialog } from './add-satellite-dialog';
import { AddWyomingSatelliteDialog } from './add-wyoming-dialog';
import { STATUS_PILL, formatAgo, isWeakSignal, wakeWordLabel } from './satellite-format';
import { RemoveSatelliteButton } from './satellite-actions';
import { ReportingSummary, SatelliteListStates } from './satellite-list-states';
import { SignalChart } from './signal-chart';
import { SourceBadge } from './source-badge';
import { SourceNotices } from './source-notices';
import { RelatedLinks } from '@/components/related-links';
import { pageContainer } from '@/components/page-container';

/**
 * /satellite-management: every satellite the hub knows, merged from Home Assistant (Voice PE,
 * Satellite1), Wyoming connections and the Nexus satellite API, with their health; admins add
 * Wyoming and Nexus satellites here.
 */
export function SatelliteManagementPage() {
  const { isAdmin } = useAuth();
  const list = useQuery(satellitesQueryOptions());
  useSatellitesLive();

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Satellite Management</h1>
          <p className="max-w-3xl text-sm text-muted-foreground">
            The hub&apos;s voice satellites: those adopted in Home Assistant, Wyoming satellites the hub
            connects to, and custom devices on the Nexus satellite API (their tokens are under{' '}
            <Link href="/satellite-management-legacy" className="underline underline-offset-4">
              Satellite Management (Legacy)
            </Link>
            ).
          </p>
          <RelatedLinks links={[{ label: 'Satellite1 control', href: '/sat1-control' }]} />
        </div>
        {isAdmin ? (
          <div className="flex flex-wrap gap-2">
            <AddWyomingSatelliteDialog />
            <AddSatelliteDialog />
          </div>
        ) : null}
      </header>

      <SourceNotices isAdmin={isAdmin} />

      <SatelliteListStates list={list} empty={<FleetEmptyState isAdmin={isAdmin} />}>
        {(satellites, checkedAt) => (
          <FleetTable satellites={satellites} checkedAt={checkedAt} isAdmin={isAdmin} />
        )}
      </SatelliteListStates>
    </div>
  );
}

function FleetEmptyState({ isAdmin }: { isAdmin: boolean }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
        <span className="grid size-10 place-items-center rounded-full bg-primary/10 text-primary">
          <Radio aria-hidden="true" className="size-5" />
        </span>
        <h2 className="font-semibold">No satellites yet</h2>
        <ul className="grid max-w-xl gap-2 text-left text-sm text-muted-foreground">
          <li>
            <span className="font-medium text-foreground">A Voice PE or Satellite1:</span> adopt it in Home
            Assistant (the ESPHome integration finds it), with Home Assistant connected under{' '}
            <Link href="/ha-connection-setup" className="underline underline-offset-4">
              HA Connection Setup
            </Link>
            . It appears here by itself.
          </li>
          <li>
            <span className="font-medium text-foreground">A Raspberry Pi with wyoming-satellite:</span>{' '}
            {isAdmin
              ? 'add it by host and port with Add Wyoming satellite.'
              : 'an admin adds it by host and port.'}
          </li>
          <li>
            <span className="font-medium text-foreground">A custom device:</span>{' '}
            {isAdmin
              ? 'add it with Add Nexus satellite and put the token it gets on the device (the Nexus satellite API).'
              : 'an admin adds it and gives it a token for the Nexus satellite API.'}
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}

const COLUMNS = 10;

function FleetTable({
  satellites,
  checkedAt,
  isAdmin,
}: {
  satellites: Satellite[];
  checkedAt: number;
  isAdmin: boolean;
}) {
  return (
    <Card>
      <CardContent className="grid gap-3 p-4">
        <ReportingSummary satellites={satellites} checkedAt={checkedAt} />
        <Table label="Satellites">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Source</TableHead>
              <TableHead>Area</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Signal</TableHead>
              <TableHead>Wake word</TableHead>
              <TableHead>Firmware</TableHead>
              <TableHead>Last seen</TableHead>
              <TableHead>
                <span className="sr-only">Controls</span>
              </TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {satellites.map((satellite) => (
              <FleetRow key={satellite.id} satellite={satellite} checkedAt={checkedAt} isAdmin={isAdmin} />
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function FleetRow({
  satellite,
  checkedAt,
  isAdmin,
}: {
  satellite: Satellite;
  checkedAt: number;
  isAdmin: boolean;
}) {
  const [showSignal, setShowSignal] = useState(false);
  const pill = STATUS_PILL[satellite.status];
  const none = (text: string) => <span className="text-muted-foreground">{text}</span>;
  const chartId = `signal-chart-${satellite.id}`;
  return (
    <Fragment>
      <TableRow data-satellite={satellite.name} data-source={satellite.source}>
        <TableCell>
          <div className="font-medium">{satellite.name}</div>
          {satellite.model ? (
            <div className="text-xs text-muted-foreground">
              {[satellite.manufacturer, satellite.model].filter(Boolean).join(' ')}
            </div>
          ) : null}
        </TableCell>
        <TableCell>
          <SourceBadge source={satellite.source} />
        </TableCell>
        <TableCell>{satellite.room ?? none('None')}</TableCell>
        <TableCell className="max-w-56">
          <StatusPill tone={pill.tone}>{pill.word}</StatusPill>
          {satellite.statusReason ? (
            <div className="mt-1 text-xs text-muted-foreground" data-testid="status-reason">
              {satellite.statusReason}
            </div>
          ) : null}
        </TableCell>
        <TableCell className="whitespace-nowrap tabular-nums">
          <div className="flex items-center gap-1">
            {satellite.signalStrength === null ? (
              none('No reading')
            ) : (
              <>
                <span>{satellite.signalStrength} dBm</span>
                {isWeakSignal(satellite.signalStrength) ? (
                  <span className="text-xs text-muted-foreground">(weak)</span>
                ) : null}
              </>
            )}
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-1.5 text-xs"
              aria-expanded={showSignal}
              aria-controls={showSignal ? chartId : undefined}
              aria-label={`Signal over 24 h for ${satellite.name}`}
              onClick={() => setShowSignal((v) => !v)}
            >
              {showSignal ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
              24 h
            </Button>
          </div>
        </TableCell>
        <TableCell>
          {satellite.activeWakeWord ? wakeWordLabel(satellite.activeWakeWord) : none('None')}
        </TableCell>
        <TableCell className="font-mono text-xs">{satellite.firmwareVersion ?? none('Unknown')}</TableCell>
        <TableCell className="whitespace-nowrap">
          {satellite.lastSeen ? (
            <time dateTime={satellite.lastSeen} title={new Date(satellite.lastSeen).toLocaleString()}>
              {formatAgo(satellite.lastSeen, checkedAt)}
            </time>
          ) : (
            none('Never')
          )}
        </TableCell>
        <TableCell>
          <Button asChild variant="outline" size="sm">
            <Link href={`/satellite-controls/${satellite.id}`} aria-label={`Controls of ${satellite.name}`}>
              <SlidersHorizontal aria-hidden="true" /> Controls
            </Link>
          </Button>
        </TableCell>
        <TableCell>{isAdmin ? <RowAdminAction satellite={satellite} /> : null}</TableCell>
      </TableRow>
      {showSignal ? (
        <TableRow id={chartId} className="hover:bg-transparent">
          <TableCell colSpan={COLUMNS} className="bg-muted/20">
            <div className="max-w-3xl">
              <SignalChart id={satellite.id} name={satellite.name} />
            </div>
          </TableCell>
        </TableRow>
      ) : null}
    </Fragment>
  );
}

/**
 * A Wyoming satellite is removed here; a Nexus-API one with its token on the legacy screen; a Home
 * Assistant one leaves when it leaves Home Assistant, so it has nothing here.
 */
function RowAdminAction({ satellite }: { satellite: Satellite }) {
  if (satellite.source === 'nexus') {
    return (
      <Button asChild variant="ghost" size="sm">
        <Link href="/satellite-management-legacy" aria-label={`Token and settings of ${satellite.name}`}>
          Token
        </Link>
      </Button>
    );
  }
  if (satellite.source !== 'wyoming') return null;
  return (
    <RemoveSatelliteButton
      satellite={satellite}
      consequence="The hub disconnects from it and stops reconnecting. Voice flows that list it no longer hear from it."
    />
  );
}
