import { StatusPill } from '@/components/ui/status-pill';
import { responseTimeTone } from '../entity-logic';
import { ConnectionTestCard } from './connection-test-panel';
import { ConnectionBanner, ConnectionPill, HaPage, useHaStatus } from './ha-common';

/** /ha-connection-test: the step-by-step test of the stored connection. */
export function ConnectionTestPage() {
  const status = useHaStatus();
  const rtt = status.data?.responseTime ?? null;
  return (
    <HaPage
      title="HA Connection Test"
      description="Check that the hub reaches Home Assistant, step by step, and how fast it answers."
      actions={
        <>
          {status.data ? <ConnectionPill status={status.data} /> : null}
          {rtt !== null ? (
            <StatusPill tone={responseTimeTone(rtt)} aria-label={`Last round trip ${Math.round(rtt)} ms`}>
              {Math.round(rtt)} ms
            </StatusPill>
          ) : null}
        </>
      }
    >
      <ConnectionBanner status={status.data} />
      <ConnectionTestCard />
    </HaPage>
  );
}
