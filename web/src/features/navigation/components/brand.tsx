import { Cpu } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';

/** Spec §1: the brand in the top bar, with the Alpha badge. Links home. */
export function Brand() {
  return (
    <Link
      href="/"
      aria-label="Nexus, home"
      className="flex items-center gap-2 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
    >
      <span className="grid size-8 place-items-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <Cpu aria-hidden="true" className="size-4" />
      </span>
      <span className="text-lg font-semibold tracking-tight">Nexus</span>
      <Badge variant="outline" className="border-primary/40 text-primary">
        Alpha
      </Badge>
    </Link>
  );
}
