import type { UseQueryResult } from '@tanstack/react-query';
import { House } from 'lucide-react';
import type { HaHealth } from '@nexus/agent/contract';
import { statusTone, type StatusTone } from '@/lib/status-words';
import { haResponseTimeTone, type ResponseTimeTone } from '../dashboard-logic';
import { CardEmpty, Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge, StatusText } from '@/components/status-badge';

/** Spec §9's three response-time grades, drawn as the status pills' good / neutral / bad. */
const RESPONSE_TIME_PILL_TONE = {
  good: 'good',
  secondary: 'neutral',
  bad: 'bad',
} as const satisfies Record<ResponseTimeTone, StatusTone>;

export function HomeAssistantCard({ query }: { query: UseQueryResult<HaHealth, Error> }) {
  return (
    <QueryCard
      title="Home Assistant"
      icon={House}
      source="Home Assistant's health check"
      query={query}
      skeletonRows={4}
      badge={(ha) => <StatusBadge word={ha.status} />}
    >
      {(ha) =>
        ha.status === 'not_configured' ? (
          <CardEmpty
            title="Home Assistant isn't connected yet"
            action={{ label: 'Connect Home Assistant', href: '/ha-connection-setup' }}
          >
            Give the hub your Home Assistant address and a long-lived access token to see devices here.
          </CardEmpty>
        ) : (
          <Facts>
            <Fact label="Connection">
              {/* "healthy" is not one of §4's words, but it plainly reads as good. */}
              <StatusText
                word={ha.connectionHealth}
                tone={ha.connectionHealth === 'healthy' ? 'good' : statusTone(ha.connectionHealth)}
              />
            </Fact>
            <Fact label="Devices">{ha.devicesCount.toLocaleString()}</Fact>
            <Fact label="Entities">{ha.entitiesCount.toLocaleString()}</Fact>
            <Fact label="Response time">
              {ha.responseTime === null ? (
                <span className="text-muted-foreground">Not measured</span>
              ) : (
                <StatusBadge
                  tone={RESPONSE_TIME_PILL_TONE[haResponseTimeTone(ha.responseTime)]}
                  data-grade={haResponseTimeTone(ha.responseTime)}
                >
                  {Math.round(ha.responseTime)} ms
                </StatusBadge>
              )}
            </Fact>
          </Facts>
        )
      }
    </QueryCard>
  );
}
