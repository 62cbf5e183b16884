import {
  Activity,
  BarChart3,
  BrainCircuit,
  CreditCard,
  House,
  Mic,
  Radio,
  ShieldCheck,
  Workflow,
} from 'lucide-react';
import { Suspense, useEffect } from 'react';
import { Link } from 'wouter';
import { DeferredControl } from '@/components/deferred-control';
import { lazyComponent } from '@/lib/lazy-code';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { scrollToHash } from '@/features/navigation/components/nav-link';
import { useBrowserIdle } from '@/lib/use-browser-idle';
import { WatchDemoButton } from './watch-demo-button';

/** Spec §1: what the product lets signed-in users manage. */
const FEATURES = [
  {
    icon: Workflow,
    title: 'AI flows and pipelines',
    text: 'Start flows by voice, API call, schedule or webhook, and chain speech-to-text, voice activity detection, a language model and actions.',
  },
  {
    icon: BrainCircuit,
    title: 'Language models, local or cloud',
    text: "Choose providers and models, and chat with local models on the hub's own Ollama.",
  },
  {
    icon: Mic,
    title: 'Wake-word training',
    text: 'Collect 50 or more samples across your devices, check each for noise ratio, clipping and silence, and generate configuration files for several wake-word engines.',
  },
  {
    icon: Radio,
    title: 'Hub and satellites',
    text: 'Watch and manage the Nexus hub, its containers and the satellite voice endpoints around your home.',
  },
  {
    icon: House,
    title: 'Home Assistant',
    text: 'Devices, entities and the logbook of your Home Assistant, reached through the hub so its token never leaves it.',
  },
  {
    icon: BarChart3,
    title: 'Behavioural analytics',
    text: "Patterns in your home's activity, drawn from Home Assistant's history.",
  },
  {
    icon: ShieldCheck,
    title: 'VPN and network tools',
    text: 'Reach the hub from outside your home and see how its network is doing.',
  },
  {
    icon: Activity,
    title: 'System diagnostics',
    text: "The hub's real hardware figures: load, memory, temperatures and uptime.",
  },
  {
    icon: CreditCard,
    title: 'Plans and billing',
    text: 'Start free; Pro and Max add unlimited messages, cloud models and VPN access.',
  },
] as const;

/** Spec §1: the upcoming apps and their stage. */
const UPCOMING_APPS = [
  { name: 'Meal Planning', status: 'Coming Soon', text: 'Plan the week’s meals and shopping by voice.' },
  {
    name: 'Legal Workflow',
    status: 'Coming Soon',
    text: 'Step-by-step help through routine legal paperwork.',
  },
  { name: 'Travel', status: 'Coming Soon', text: 'Trips, bookings and reminders in one place.' },
  {
    name: 'Document Processing',
    status: 'Coming Soon',
    text: 'Read, sort and summarise documents on the hub.',
  },
  {
    name: 'Neurological Assessment',
    status: 'Coming Soon',
    text: 'Guided exercises for tracking cognitive and speech changes over time.',
  },
  {
    name: 'Real Estate',
    status: 'In Development',
    text: 'Listings, viewings and paperwork for buying or renting.',
  },
] as const;

/** The visitor's home page (spec §1, §2): what Nexus is, its features, what is coming. */
export function LandingPage() {
  // Arriving at /#features from another page: go to the section once it is on the page.
  useEffect(() => {
    if (window.location.hash) scrollToHash(window.location.hash);
  }, []);

  return (
    <div className="w-full">
      <section className="border-b bg-gradient-to-b from-primary/5 to-background">
        <div className="mx-auto flex w-full max-w-7xl flex-col items-start gap-6 px-4 py-16 sm:py-24">
          <Badge variant="outline" className="border-primary/40 text-primary">
            Alpha · self-hosted
          </Badge>
          <h1 className="max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Your voice assistant and smart home, run from your own hub
          </h1>
          <p className="max-w-2xl text-lg text-muted-foreground">
            Nexus Console manages a Nexus hub and everything around it: AI pipelines, language models, wake
            words, satellites and Home Assistant. It runs privately on the hub in your home, with local
            models, or uses cloud models when you choose to.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button size="lg" asChild>
              <Link href="/auth">Sign Up</Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link href="/dashboard">Try Demo</Link>
            </Button>
            <DemoVideo />
          </div>
          <p className="text-sm text-muted-foreground">
            New here? Read the{' '}
            <Link href="/help" className="font-medium text-primary underline-offset-4 hover:underline">
              Help
            </Link>{' '}
            for setting up your hub, or see{' '}
            <a href="#features" className="font-medium text-primary underline-offset-4 hover:underline">
              what it does
            </a>
            .
          </p>
        </div>
      </section>

      <section aria-labelledby="preview-heading" className="border-b">
        <div className="mx-auto w-full max-w-7xl px-4 py-16">
          <h2 id="preview-heading" className="text-3xl font-semibold tracking-tight">
            What the console looks like
          </h2>
          <p className="mt-2 mb-8 max-w-2xl text-muted-foreground">
            The dashboard of a hub with a local model and Home Assistant connected.
          </p>
          <DeferredDashboardPreview />
        </div>
      </section>

      <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 outline-none">
        <div className="mx-auto w-full max-w-7xl px-4 py-16">
          <h2 id="features-heading" className="text-3xl font-semibold tracking-tight">
            Features
          </h2>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            One console for the hub, the voice pipeline and the smart home it talks to.
          </p>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <li key={title}>
                <Card className="h-full">
                  <CardHeader>
                    <span className="mb-2 grid size-10 place-items-center rounded-lg bg-primary/10 text-primary">
                      <Icon aria-hidden="true" className="size-5" />
                    </span>
                    <CardTitle role="heading" aria-level={3}>
                      {title}
                    </CardTitle>
                    <CardDescription>{text}</CardDescription>
                  </CardHeader>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="apps-heading" className="border-t bg-muted/30">
        <div className="mx-auto w-full max-w-7xl px-4 py-16">
          <h2 id="apps-heading" className="text-3xl font-semibold tracking-tight">
            Upcoming apps
          </h2>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            Apps that will run on the same hub and pipeline. None of them is available yet.
          </p>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {UPCOMING_APPS.map((app) => (
              <li key={app.name}>
                <Card className="h-full" data-testid="upcoming-app">
                  <CardHeader>
                    <div className="flex items-center justify-between gap-2">
                      <CardTitle role="heading" aria-level={3}>
                        {app.name}
                      </CardTitle>
                      <Badge variant={app.status === 'In Development' ? 'default' : 'secondary'}>
                        {app.status}
                      </Badge>
                    </div>
                  </CardHeader>
                  <CardContent className="text-sm text-muted-foreground">{app.text}</CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="start-heading" className="border-t">
        <div className="mx-auto flex w-full max-w-7xl flex-col items-start gap-4 px-4 py-16">
          <h2 id="start-heading" className="text-2xl font-semibold tracking-tight">
            Get started
          </h2>
          <p className="max-w-2xl text-muted-foreground">
            The first account created on a hub becomes its owner. Everything you set up stays on the hub.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <Link href="/auth">Sign Up</Link>
            </Button>
            <Button variant="outline" asChild>
              <Link href="/help">Help</Link>
            </Button>
            <Button variant="ghost" asChild>
              <Link href="/pricing">See pricing</Link>
            </Button>
          </div>
        </div>
      </section>
    </div>
  );
}

// What the first paint does not need loads once the browser is idle after it (issue 26): the demo
// dialog's code (Radix Dialog) and the dashboard preview below the fold.
const DemoVideoDialog = lazyComponent(async () => (await import('./demo-video-dialog')).DemoVideoDialog);
const DashboardPreview = lazyComponent(
  async () => (await import('@/features/dashboard/components/dashboard-preview')).DashboardPreview,
).Component;

/** "Watch Demo": a press before the dialog's code has arrived opens the dialog when it has. */
function DemoVideo() {
  return (
    <DeferredControl
      code={DemoVideoDialog}
      button={(onPress) => <WatchDemoButton onClick={onPress} />}
      full={(press) => <DemoVideoDialog.Component defaultOpen={press !== null} />}
    />
  );
}

/** The dashboard preview, once the browser is idle; until then a frame of its height. */
function DeferredDashboardPreview() {
  const idle = useBrowserIdle();
  const placeholder = (
    <div aria-hidden="true" className="min-h-[50rem] rounded-xl border border-dashed md:min-h-[20rem]" />
  );
  if (!idle) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <DashboardPreview />
    </Suspense>
  );
}
