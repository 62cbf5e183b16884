import { useId } from 'react';
import { Activity, AudioLines, BrainCircuit, ChevronRight, Radio, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';

interface Tile {
  href: string;
  title: string;
  description: string;
  icon: LucideIcon;
}

/** Spec §2: Quick Launch tiles to /nexus-status, /satellite-management, /llm and /wake-words. */
export const QUICK_LAUNCH_TILES: readonly Tile[] = [
  {
    href: '/nexus-status',
    title: 'Nexus Status',
    description: 'Live CPU, memory, disks and processes',
    icon: Activity,
  },
  {
    href: '/satellite-management',
    title: 'Satellites',
    description: 'Add and manage Satellite1 devices',
    icon: Radio,
  },
  { href: '/llm', title: 'LLM Control', description: 'Models, providers and pipelines', icon: BrainCircuit },
  {
    href: '/wake-words',
    title: 'Wake Words',
    description: 'Record, train and deploy wake words',
    icon: AudioLines,
  },
];

export function QuickLaunch() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h2 id={headingId} className="text-lg font-semibold tracking-tight">
        Quick Launch
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {QUICK_LAUNCH_TILES.map(({ href, title, description, icon: Icon }) => (
          <li key={href}>
            <Link
              href={href}
              className="group flex h-full items-center gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors outline-none hover:border-primary/50 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-medium">{title}</span>
                <span className="block text-sm text-muted-foreground">{description}</span>
              </span>
              <ChevronRight
                aria-hidden="true"
                className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
              />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
