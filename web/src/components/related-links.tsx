import { Link } from 'wouter';
import { cn } from '@/lib/utils';

/**
 * The screens next to this one, as a row of links under its heading: with the Tools & Utilities menu
 * they keep every screen at most two clicks from the dashboard (issue 21, tests/e2e/reach.spec.ts).
 */
export function RelatedLinks({
  links,
  className,
}: {
  links: readonly { label: string; href: string }[];
  className?: string;
}) {
  return (
    <nav aria-label="Related screens" className={cn('flex flex-wrap gap-x-4 gap-y-1 text-sm', className)}>
      {links.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          className="rounded-sm text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
