import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { SatelliteSourceStatus } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { sourceLabel } from './satellite-format';
import { satelliteSourcesQueryOptions } from '@/data/satellites';

/** Where an admin puts the source right. */
const REMEDY: Record<SatelliteSourceStatus['source'], { admin: ReactNode; member: string }> = {
  'home-assistant': {
    admin: (
      <>
        Connect Home Assistant under{' '}
        <Link href="/ha-connection-setup" className="font-medium underline underline-offset-4">
          HA Connection Setup
        </Link>
        : the Voice PE and Satellite1 devices adopted there then appear here on their own.
      </>
    ),
    member:
      'An admin of this hub connects Home Assistant under HA Connection Setup; its satellites then appear here.',
  },
  wyoming: {
    admin: 'Wyoming satellites already added stay listed and the hub keeps trying to reach them.',
    member: 'Ask an admin of this hub to look at it.',
  },
  nexus: {
    admin: 'Check the hub under System Diagnostics.',
    member: 'Ask an admin of this hub to look at it.',
  },
};

/**
 * Says which sources could not be read and why (e.g. Home Assistant not connected), so a missing
 * satellite is explained rather than silently absent.
 */
export function SourceNotices({ isAdmin }: { isAdmin: boolean }) {
  const sources = useQuery(satelliteSourcesQueryOptions());
  const down = (sources.data ?? []).filter((s) => !s.available);
  if (down.length === 0) return null;
  return (
    <div className="grid gap-2">
      {down.map((source) => (
        <Alert key={source.source} variant="warning" data-source-notice={source.source}>
          <AlertTitle>{sourceLabel(source.source)} satellites are not shown</AlertTitle>
          <AlertDescription>
            <p>{source.message ?? 'This source cannot be read right now.'}</p>
            <p>{isAdmin ? REMEDY[source.source].admin : REMEDY[source.source].member}</p>
          </AlertDescription>
        </Alert>
      ))}
    </div>
  );
}
