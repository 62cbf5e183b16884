import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/features/auth';
import { haHealthQueryOptions } from '@/data/ha-patterns';
import { healthQueryOptions } from '@/data/health';
import { llmPipelineStatusQueryOptions } from '@/data/llm-status';
import { nexusStatusQueryOptions, systemUptimeQueryOptions } from '@/data/metrics';
import { satellitesQueryOptions } from '@/data/satellite-list';
import { subscriptionStatusQueryOptions } from '@/data/subscription-status';
import { vpnStatusQueryOptions } from '@/data/vpn-status';
import { HomeAssistantCard } from './home-assistant-card';
import { LiveClock } from './live-clock';
import { LlmCard } from './llm-card';
import { NexusCard } from './nexus-card';
import { PlatformInfoCard } from './platform-info-card';
import { QuickLaunch } from './quick-launch';
import { SatelliteCard } from './satellite-card';
import { SubscriptionCard } from './subscription-card';
import { SystemHealthCard } from './system-health-card';
import { VpnCard } from './vpn-card';
import { pageContainer } from '@/components/page-container';

/** Spec §2 "Dashboard" (/ and /dashboard), with the states of §4 and the polling of §7. */
export function DashboardPage() {
  const { user } = useAuth();
  // Spec §7: the dashboard polls only while someone is signed in.
  const signedIn = user !== null;

  const subscription = useQuery(subscriptionStatusQueryOptions(signedIn));
  const nexus = useQuery(nexusStatusQueryOptions(signedIn));
  const satellites = useQuery(satellitesQueryOptions(signedIn));
  const llm = useQuery(llmPipelineStatusQueryOptions(signedIn));
  const vpn = useQuery(vpnStatusQueryOptions(signedIn));
  const uptime = useQuery(systemUptimeQueryOptions(signedIn));
  const ha = useQuery(haHealthQueryOptions(signedIn));
  const platform = useQuery(healthQueryOptions(signedIn));

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Dashboard</h1>
          <p className="text-muted-foreground">
            {user ? `Welcome back, ${user.name}. ` : ''}Your hub, satellites and services at a glance.
          </p>
        </div>
        <LiveClock />
      </header>

      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <NexusCard query={nexus} />
        <SatelliteCard query={satellites} />
        <LlmCard query={llm} />
        <HomeAssistantCard query={ha} />
        <VpnCard query={vpn} />
        <SystemHealthCard nexus={nexus} ha={ha} llm={llm} vpn={vpn} uptime={uptime} signedIn={signedIn} />
      </div>

      <QuickLaunch />

      <div className="grid gap-4 lg:grid-cols-3">
        <SubscriptionCard query={subscription} className="lg:col-span-2" />
        <PlatformInfoCard health={platform} nexus={nexus} />
      </div>
    </div>
  );
}
