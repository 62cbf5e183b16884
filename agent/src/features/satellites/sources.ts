import type { Satellite, SatelliteControlInput } from '../../contract/satellites.js';
import type { SatelliteRow } from './satellites.table.js';

/**
 * What a source knows of one satellite now. The satellites service adds the hub's own id, the
 * source and createdAt, and keeps the row that gives the satellite its id.
 */
export type SatelliteLiveView = Omit<Satellite, 'id' | 'source' | 'createdAt'>;

/** Whether a source can be read now; the fleet screen shows the message when it cannot. */
export interface SourceAvailability {
  available: boolean;
  message: string | null;
}

/**
 * Satellites adopted by Home Assistant: every device with an `assist_satellite.*` entity, read
 * from HA's device, entity and area registries and states over the existing connection.
 */
export interface HaSatelliteSource {
  availability(): SourceAvailability;
  /** From memory: cheap enough for every list request. */
  list(): Array<{ deviceId: string; view: SatelliteLiveView }>;
  /**
   * The HA service call for the action on the device's own entity. Rejects with HttpError 409 when
   * the device lacks the entity, 503/502/504 when HA cannot do it.
   */
  control(deviceId: string, input: SatelliteControlInput): Promise<void>;
  /** Called (at most every few hundred ms) when a satellite appears, goes or changes. */
  onChange(listener: () => void): void;
}

/**
 * The hub as a Wyoming client of every Wyoming satellite an admin added: one connection each,
 * with describe → info, run-satellite, reconnects with back-off, and voice runs from its audio.
 */
export interface WyomingSatelliteManager {
  /** Connects to the satellites it does not know yet and drops those that are gone. */
  sync(rows: SatelliteRow[]): void;
  /** The row joined with what the connection knows (info, state). */
  view(row: SatelliteRow): SatelliteLiveView;
  control(row: SatelliteRow, input: SatelliteControlInput): Promise<void>;
  onChange(listener: () => void): void;
  stop(): void;
}
