import { Suspense, lazy, type ComponentType } from 'react';
import { Link, useLocation } from 'wouter';
import { Activity, Bug, Cpu, FlaskConical, LayoutDashboard, Network } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth';
import { BackupsSection } from '@/features/backups';
import { cn } from '@/lib/utils';
import { DebugPanel } from './debug-panel';
import { JetsonCheckPanel } from './jetson-check-panel';
import { OverviewPanel } from './overview-panel';
import { SelfTestPanel } from './self-test-panel';
import { pageContainer } from '@/components/page-container';

interface Section {
  href: string;
  label: string;
  icon: typeof Activity;
  adminOnly?: boolean;
}

const SECTIONS: readonly Section[] = [
  { href: '/nexus-management', label: 'Overview', icon: LayoutDashboard },
  { href: '/nexus-status', label: 'Live status', icon: Activity },
  { href: '/nexus-test', label: 'Self-test', icon: FlaskConical, adminOnly: true },
  { href: '/nexus-debug', label: 'Debug', icon: Bug, adminOnly: true },
  { href: '/jetson-check', label: 'Jetson check', icon: Cpu, adminOnly: true },
];

function SectionNav() {
  const [location] = useLocation();
  const { isAdmin } = useAuth();
  return (
    <nav aria-label="Nexus management" className="flex flex-wrap items-center gap-2">
      <div className="flex flex-wrap gap-1 rounded-lg bg-muted p-1 text-sm">
        {SECTIONS.filter((s) => isAdmin || !s.adminOnly).map(({ href, label, icon: Icon }) => (
          <Link
            key={href}
            href={href}
            aria-current={location === href ? 'page' : undefined}
            className={cn(
              'inline-flex items-center gap-1.5 rounded-md px-3 py-1 font-medium text-muted-foreground hover:text-foreground',
              location === href && 'bg-background text-foreground shadow-sm',
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {label}
          </Link>
        ))}
      </div>
      <Link
        href="/multi-nexus"
        className="inline-flex items-center gap-1.5 rounded-md px-3 py-1 text-sm font-medium text-muted-foreground hover:text-foreground"
      >
        <Network aria-hidden="true" className="size-4" /> Other hubs
      </Link>
    </nav>
  );
}

/** The overview, and for administrators the hub's backups (the onboarding checklist links here). */
function OverviewAndBackups() {
  const { isAdmin } = useAuth();
  return (
    <>
      <OverviewPanel />
      {isAdmin ? <BackupsSection /> : null}
    </>
  );
}

const PANELS: Record<string, { title: string; intro: string; Panel: ComponentType }> = {
  '/nexus-management': {
    title: 'Nexus Management',
    intro: "This hub's identity, version and services, and how each of them is doing.",
    Panel: OverviewAndBackups,
  },
  '/nexus-test': {
    title: 'Self-test',
    intro: 'Probe every service, the network and the hardware now, and see what to fix.',
    Panel: SelfTestPanel,
  },
  '/nexus-debug': {
    title: 'Debug',
    intro: "The agent's process, configuration and database, as a technician asks for them.",
    Panel: DebugPanel,
  },
  '/jetson-check': {
    title: 'Jetson Check',
    intro: 'The board, JetPack, CUDA, power mode, clocks, temperatures, power rails and container runtime.',
    Panel: JetsonCheckPanel,
  },
};

/**
 * Nexus management (/nexus-management, /nexus-status, /nexus-test, /nexus-debug, /jetson-check):
 * one screen with a section per address. The live status section is the diagnostics screen,
 * passed in by the route table, which composes features.
 */
export function NexusManagementPage({
  liveStatus: LiveStatus,
}: {
  liveStatus?: ComponentType<{ signedIn: boolean }>;
}) {
  const [location] = useLocation();
  if (location === '/nexus-status' && LiveStatus) {
    return (
      <>
        <div className="mx-auto w-full max-w-7xl px-4 pt-6">
          <SectionNav />
        </div>
        <LiveStatus signedIn />
      </>
    );
  }
  const { title, intro, Panel } = PANELS[location] ?? PANELS['/nexus-management']!;
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-3">
        <SectionNav />
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">{title}</h1>
        <p className="text-muted-foreground">{intro}</p>
      </header>
      <Panel />
    </div>
  );
}

/**
 * The screen for the route table, with the live status section drawn by another feature's page
 * (the table composes features; features do not import each other). That page loads only when
 * the section is opened, so the other sections never wait for it or depend on it.
 */
export function nexusManagementScreen(loadLiveStatus: () => Promise<ComponentType<{ signedIn: boolean }>>) {
  const LiveStatus = lazy(async () => ({ default: await loadLiveStatus() }));
  function LiveStatusSection({ signedIn }: { signedIn: boolean }) {
    return (
      <Suspense
        fallback={
          <div className="grid min-h-[50vh] place-items-center">
            <Spinner className="size-8 text-muted-foreground" />
          </div>
        }
      >
        <LiveStatus signedIn={signedIn} />
      </Suspense>
    );
  }
  function NexusManagementScreen() {
    return <NexusManagementPage liveStatus={LiveStatusSection} />;
  }
  return NexusManagementScreen;
}
