import type { ReactNode } from 'react';
import { Panel } from '@/components/ui/panel';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { BookOpen, Check, Minus, Rocket, Wrench } from 'lucide-react';
import type { SetupStep } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth';
import { cn } from '@/lib/utils';
import { setupProgressQueryOptions } from '@/data/setup';
import { STEP_TITLES } from '../steps';
import { InstallWizard } from './install-wizard';
import { pageContainer } from '@/components/page-container';

const GUIDES = [
  { href: '/nexus-setup', label: 'Install guide', icon: Wrench },
  { href: '/install', label: 'Setup wizard', icon: Rocket },
  { href: '/nexus-quick-start', label: 'Quick start', icon: BookOpen },
] as const;

function GuideNav() {
  const [location] = useLocation();
  return (
    <nav aria-label="Nexus setup" className="flex flex-wrap gap-1 rounded-lg bg-muted p-1 text-sm">
      {GUIDES.map(({ href, label, icon: Icon }) => (
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
    </nav>
  );
}

function GuideFrame({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-3">
        <GuideNav />
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">{title}</h1>
        <p className="text-muted-foreground">{intro}</p>
      </header>
      {children}
    </div>
  );
}

function Command({ children }: { children: string }) {
  return (
    <pre className="overflow-x-auto rounded-md bg-muted px-3 py-2 font-mono text-xs leading-5">
      <code>{children}</code>
    </pre>
  );
}

/** /nexus-setup: how a hub is installed, from a flashed Jetson to the first-boot wizard. */
function InstallGuide() {
  return (
    <GuideFrame
      title="Install Nexus on a Jetson"
      intro="From a flashed Jetson to a running hub: two ways to install, then the first-boot wizard does the rest."
    >
      <Panel contentClassName="grid gap-3 text-sm leading-6" title="1. What you need">
        <ul className="ml-5 list-disc space-y-1">
          <li>An NVIDIA Jetson Orin (Nano, NX or AGX) with JetPack 6, or a Xavier with JetPack 5.1.</li>
          <li>32 GB of storage or more; an NVMe drive makes models load much faster than an SD card.</li>
          <li>The hub on your home network (Ethernet, or Wi-Fi set up with nmcli).</li>
        </ul>
      </Panel>
      <Panel
        contentClassName="grid gap-3 text-sm leading-6"
        title="2a. Install with Docker Compose (recommended)"
      >
        <p>
          JetPack ships Docker and the NVIDIA container runtime. The compose file runs the console on port
          8080, with the Docker socket for managing containers and the host&apos;s root mounted read-only for
          the Jetson check. Choose the services with profiles:
        </p>
        <Command>{`git clone <this repository> nexus && cd nexus
docker compose --profile ollama --profile home-assistant --profile voice up -d`}</Command>
        <p>
          Profiles: <code>ollama</code> (local models on the GPU), <code>home-assistant</code>,{' '}
          <code>voice</code> (Whisper, Piper and openWakeWord). Without profiles only the console starts; you
          can deploy the same services later from the Nexus deploy screen.
        </p>
      </Panel>
      <Panel contentClassName="grid gap-3 text-sm leading-6" title="2b. Install without containers">
        <p>
          The installer sets up Node.js, builds the console, creates the <code>nexus</code> user, the data
          directory <code>/var/lib/nexus</code> and the systemd service <code>nexus-agent</code>. It can be
          run again to update, and <code>--uninstall</code> removes it (the data stays unless you add{' '}
          <code>--purge</code>).
        </p>
        <Command>{`sudo ./scripts/install.sh
systemctl status nexus-agent`}</Command>
      </Panel>
      <Panel contentClassName="grid gap-3 text-sm leading-6" title="3. First boot">
        <p>
          Open <code>http://&lt;hub address&gt;:8080</code> from a computer or phone on the same network.
          Until an owner account exists, every page leads to the setup wizard at{' '}
          <Link href="/install">/install</Link>: the owner account, the hub&apos;s name and time zone, a
          network check, Home Assistant and the services to deploy.
        </p>
      </Panel>
      <Panel contentClassName="grid gap-3 text-sm leading-6" title="4. When something is wrong">
        <p>
          <Link href="/jetson-check" className="underline">
            The Jetson check
          </Link>{' '}
          reads the board, JetPack, CUDA, power mode, clocks, temperatures and the container runtime, and says
          how to fix each problem. The agent&apos;s log: <code>journalctl -u nexus-agent</code> (bare install)
          or <code>docker compose logs agent</code>.
        </p>
      </Panel>
    </GuideFrame>
  );
}

const RECORDED: SetupStep[] = ['owner', 'hub', 'network', 'home-assistant', 'services'];

/** /nexus-quick-start: where this hub is in its setup, and the first things to do with it. */
function QuickStart() {
  const { isAdmin } = useAuth();
  const progress = useQuery(setupProgressQueryOptions(isAdmin));
  return (
    <GuideFrame
      title="Quick start"
      intro="The first things to do with a new hub, with this hub's own progress where the console knows it."
    >
      {isAdmin ? (
        <Panel contentClassName="grid gap-3 text-sm leading-6" title="This hub's setup">
          {progress.data ? (
            <>
              <ul className="grid gap-2" aria-label="Setup steps">
                {RECORDED.map((step) => {
                  const done = progress.data.completed.includes(step);
                  const skipped = progress.data.skipped.includes(step);
                  return (
                    <li key={step} className="flex items-center gap-2">
                      {done ? (
                        <Check aria-hidden="true" className="size-4 text-success" />
                      ) : (
                        <Minus aria-hidden="true" className="size-4 text-muted-foreground" />
                      )}
                      {STEP_TITLES[step]}
                      <Badge variant={done ? 'success' : skipped ? 'outline' : 'warning'}>
                        {done ? 'Done' : skipped ? 'Skipped' : 'To do'}
                      </Badge>
                    </li>
                  );
                })}
              </ul>
              <div>
                <Button asChild variant={progress.data.finishedAt ? 'outline' : 'default'}>
                  <Link href="/install">
                    {progress.data.finishedAt ? 'Open the setup wizard' : 'Continue the setup'}
                  </Link>
                </Button>
              </div>
            </>
          ) : progress.error ? (
            <p className="text-muted-foreground">The setup progress could not be read.</p>
          ) : (
            <Skeleton className="h-32 w-full" />
          )}
        </Panel>
      ) : null}
      <Panel contentClassName="grid gap-3 text-sm leading-6" title="Then">
        <ol className="ml-5 list-decimal space-y-2">
          <li>
            <Link href="/ha-connection-setup" className="underline">
              Connect Home Assistant
            </Link>{' '}
            with a long-lived access token, and check the connection.
          </li>
          <li>
            <Link href="/nexus-deploy" className="underline">
              Deploy services
            </Link>{' '}
            (Ollama, Whisper, Piper, openWakeWord) and{' '}
            <Link href="/ollama" className="underline">
              pull a model
            </Link>
            .
          </li>
          <li>
            <Link href="/satellite-management" className="underline">
              Pair a voice satellite
            </Link>{' '}
            and{' '}
            <Link href="/wake-words" className="underline">
              train a wake word
            </Link>
            .
          </li>
          <li>
            Watch the hub on{' '}
            <Link href="/nexus-status" className="underline">
              Nexus status
            </Link>{' '}
            and check the hardware with{' '}
            <Link href="/jetson-check" className="underline">
              the Jetson check
            </Link>
            .
          </li>
          <li>
            Add other hubs on{' '}
            <Link href="/multi-nexus" className="underline">
              Multi-Nexus
            </Link>{' '}
            to watch them from here.
          </li>
        </ol>
      </Panel>
    </GuideFrame>
  );
}

/** /nexus-setup, /install and /nexus-quick-start: one screen, the hub's setup journey. */
export function SetupPage() {
  const [location] = useLocation();
  if (location === '/install') return <InstallWizard />;
  if (location === '/nexus-quick-start') return <QuickStart />;
  return <InstallGuide />;
}
