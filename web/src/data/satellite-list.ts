import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  POLL_INTERVALS_MS,
  SATELLITE_SOURCES,
  WYOMING_CONNECTION_STATES,
  type Satellite,
  type SatelliteControls,
} from '@nexus/agent/contract';
import {
  array,
  boolean,
  integer,
  nullable,
  number,
  object,
  oneOf,
  parseShape,
  string,
  type Shape,
} from '@/lib/answer-shape';
import { useLiveTopic, type LiveConnectionState } from '@/lib/live';
import { rereadQueries } from '@/lib/query-client';
import { getParsed } from './auth-session';

/**
 * The satellites' merged list, its keys and its live topic: the part of the satellites feature's
 * data (data/satellites.ts, which re-exports this) that the dashboard reads. Its answers are
 * checked with small shapes of the contract's schemas (lib/answer-shape), so the dashboard's first
 * figures do not wait for zod (issue 26).
 */
export const SATELLITES_API = '/api/devices/satellite';
/** The live channel's topic that carries the merged list whenever it changes. */
export const SATELLITES_TOPIC = 'satellites';

/**
 * Keys joined with '/' are the paths they fetch (spec §7). The list's key is the one the dashboard
 * and the FlowForge builder use, so a satellite added or renamed here shows there at once.
 */
export const satelliteKeys = {
  all: [SATELLITES_API] as const,
  sources: () => [SATELLITES_API, 'sources'] as const,
  one: (id: number) => [SATELLITES_API, String(id)] as const,
  signal: (id: number) => [SATELLITES_API, String(id), 'signal'] as const,
};

const satelliteControlsShape: Shape<SatelliteControls> = object<SatelliteControls>({
  volume: nullable(object({ value: nullable(number) })),
  mute: nullable(object({ value: nullable(boolean) })),
  wakeWord: nullable(object({ value: nullable(string), options: array(string) })),
  led: nullable(object({ on: nullable(boolean), brightness: nullable(number), color: nullable(string) })),
  restart: boolean,
  announce: boolean,
});

/** contract/satellites.ts satelliteSchema. */
export const satelliteShape: Shape<Satellite> = object<Satellite>({
  id: integer,
  source: oneOf(SATELLITE_SOURCES),
  name: string,
  status: oneOf(['online', 'degraded', 'offline']),
  statusReason: nullable(string),
  signalStrength: nullable(number),
  activeWakeWord: nullable(string),
  lastSeen: nullable(string),
  room: nullable(string),
  ipAddress: nullable(string),
  firmwareVersion: nullable(string),
  model: nullable(string),
  manufacturer: nullable(string),
  createdAt: string,
  controls: satelliteControlsShape,
  homeAssistant: nullable(object({ deviceId: string, satelliteEntityId: string })),
  wyoming: nullable(
    object<NonNullable<Satellite['wyoming']>>({
      host: string,
      port: integer,
      connection: oneOf(WYOMING_CONNECTION_STATES),
      error: nullable(string),
      nextRetryAt: nullable(number),
      streaming: boolean,
      wakeWords: array(string),
    }),
  ),
});

/** contract/satellites.ts satelliteListSchema. */
export const satelliteListShape: Shape<Satellite[]> = array(satelliteShape);

/** The merged list (Home Assistant, Wyoming and Nexus-API satellites), polled as spec §7 says. */
export const satellitesQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: satelliteKeys.all,
    queryFn: () => getParsed(SATELLITES_API, satelliteListShape),
    // Spec §7: every 15 s. The live topic brings changes sooner while a satellite screen is open.
    refetchInterval: POLL_INTERVALS_MS.satellites,
    enabled,
  });

/**
 * Keeps the cached list (and the satellites open on screen) current from the `satellites` live
 * topic, which the agent publishes on every change of any source. Each time the agent confirms the
 * topic (first, and after the socket comes back from a drop) the list is read again: changes before
 * then were missed.
 */
export function useSatellitesLive(enabled = true): { liveState: LiveConnectionState } {
  const client = useQueryClient();
  const { state } = useLiveTopic(SATELLITES_TOPIC, {
    enabled,
    onSubscribed: () => void rereadQueries(client, satelliteKeys.all),
    onEvent: (raw) => {
      let list: Satellite[];
      try {
        list = parseShape(satelliteListShape, raw);
      } catch {
        return;
      }
      client.setQueryData(satelliteKeys.all, list);
      for (const satellite of list) {
        if (client.getQueryData(satelliteKeys.one(satellite.id))) {
          client.setQueryData(satelliteKeys.one(satellite.id), satellite);
        }
      }
    },
  });
  return { liveState: state };
}
