import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { HA_ENTITIES_TOPIC, haLiveMessageSchema, type HaEntityList } from '@nexus/agent/contract';
import { useLiveTopic, type LiveConnectionState } from '@/lib/live';
import { haKeys } from './api';
import { applyLiveMessage } from './entity-logic';

/**
 * Keeps the cached entity list current from the `ha.entities` live topic: changed and removed
 * entities are patched in place, a resync or a change of the connection reloads, and so does
 * the live socket coming back after a drop (events sent meanwhile were missed).
 */
export function useHaLive(enabled = true): { liveState: LiveConnectionState } {
  const client = useQueryClient();
  const { state } = useLiveTopic(HA_ENTITIES_TOPIC, {
    enabled,
    onEvent: (raw) => {
      const parsed = haLiveMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'changed' || message.type === 'removed') {
        client.setQueryData<HaEntityList>(haKeys.entities(), (list) =>
          list ? applyLiveMessage(list, message) : list,
        );
      } else {
        void client.invalidateQueries({ queryKey: haKeys.all });
      }
    },
  });

  const previous = useRef<LiveConnectionState>(state);
  useEffect(() => {
    if (state === 'open' && previous.current === 'reconnecting') {
      void client.invalidateQueries({ queryKey: haKeys.all });
    }
    previous.current = state;
  }, [state, client]);

  return { liveState: state };
}
