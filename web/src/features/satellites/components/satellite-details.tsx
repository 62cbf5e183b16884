import type { ReactNode } from 'react';
import type { Satellite } from '@nexus/agent/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { StatusPill } from '@/components/ui/status-pill';
import {
  STATUS_PILL,
  WYOMING_CONNECTION_WORDS,
  formatAgo,
  wakeWordLabel,
  wyomingAddress,
} from './satellite-format';
import { SignalChart } from './signal-chart';
import { SourceBadge } from './source-badge';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

const unknown = <span className="text-muted-foreground">Unknown</span>;

/** What the hub knows of one satellite, where it comes from, and its signal over 24 h. */
export function SatelliteDetails({ satellite, checkedAt }: { satellite: Satellite; checkedAt: number }) {
  const pill = STATUS_PILL[satellite.status];
  const { wyoming, homeAssistant } = satellite;
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Details
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="divide-y" aria-label={`Details of ${satellite.name}`}>
          <Fact label="Status">
            <StatusPill tone={pill.tone}>{pill.word}</StatusPill>
            {satellite.statusReason ? (
              <span className="ml-2 text-muted-foreground">{satellite.statusReason}</span>
            ) : null}
          </Fact>
          <Fact label="Source">
            <SourceBadge source={satellite.source} />
          </Fact>
          <Fact label="Model">{satellite.model ?? unknown}</Fact>
          <Fact label="Manufacturer">{satellite.manufacturer ?? unknown}</Fact>
          <Fact label="Firmware">
            {satellite.firmwareVersion ? (
              <span className="font-mono text-xs">{satellite.firmwareVersion}</span>
            ) : (
              unknown
            )}
          </Fact>
          <Fact label="Area">{satellite.room ?? <span className="text-muted-foreground">None</span>}</Fact>
          <Fact label="IP address">
            {satellite.ipAddress ? <span className="font-mono text-xs">{satellite.ipAddress}</span> : unknown}
          </Fact>
          <Fact label="Wake word">
            {satellite.activeWakeWord ? (
              wakeWordLabel(satellite.activeWakeWord)
            ) : (
              <span className="text-muted-foreground">None</span>
            )}
          </Fact>
          <Fact label="Last seen">
            {satellite.lastSeen ? (
              <time dateTime={satellite.lastSeen} title={new Date(satellite.lastSeen).toLocaleString()}>
                {formatAgo(satellite.lastSeen, checkedAt)}
              </time>
            ) : (
              <span className="text-muted-foreground">Never</span>
            )}
          </Fact>
          {homeAssistant ? (
            <>
              <Fact label="HA device id">
                <span className="font-mono text-xs">{homeAssistant.deviceId}</span>
              </Fact>
              <Fact label="Satellite entity">
                <span className="font-mono text-xs">{homeAssistant.satelliteEntityId}</span>
              </Fact>
            </>
          ) : null}
          {wyoming ? (
            <>
              <Fact label="Wyoming address">
                <span className="font-mono text-xs">{wyomingAddress(wyoming)}</span>
              </Fact>
              <Fact label="Connection">
                {WYOMING_CONNECTION_WORDS[wyoming.connection]}
                {wyoming.streaming ? ' · streaming audio' : ''}
                {wyoming.error ? <span className="block text-muted-foreground">{wyoming.error}</span> : null}
                {wyoming.nextRetryAt ? (
                  <span className="block text-muted-foreground">
                    Next attempt at {new Date(wyoming.nextRetryAt).toLocaleTimeString()}
                  </span>
                ) : null}
              </Fact>
            </>
          ) : null}
        </dl>
        <section className="grid gap-2" aria-labelledby={`signal-heading-${satellite.id}`}>
          <h3 id={`signal-heading-${satellite.id}`} className="text-sm font-semibold">
            Signal, last 24 hours
          </h3>
          <SignalChart id={satellite.id} name={satellite.name} height={180} />
        </section>
      </CardContent>
    </Card>
  );
}
