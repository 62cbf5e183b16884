import { SearchX } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';

/** Spec §2: a signed-in path that matches no screen. */
export function NotFoundScreen() {
  const [location] = useLocation();
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-20 text-center">
      <SearchX aria-hidden="true" className="size-10 text-muted-foreground" />
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-muted-foreground">
        There is no screen at <code className="rounded bg-muted px-1.5 py-0.5 text-sm">{location}</code>. The
        link may be old or mistyped.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link href="/dashboard">Go to the dashboard</Link>
        </Button>
        <Button variant="outline" asChild>
          <Link href="/help">Help</Link>
        </Button>
      </div>
    </div>
  );
}
