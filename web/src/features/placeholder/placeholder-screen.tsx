import { Construction } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { pageContainer } from '@/components/page-container';

export interface PlaceholderLink {
  label: string;
  href: string;
}

export interface PlaceholderScreenProps {
  title: string;
  /** One honest sentence of what the screen will do. */
  description: string;
  /** Screens that are built, to go to instead. */
  links: readonly PlaceholderLink[];
}

/**
 * A screen whose feature is not built yet. It says so plainly and offers the screens that are;
 * it shows no numbers, since any would be invented.
 */
export function PlaceholderScreen({ title, description, links }: PlaceholderScreenProps) {
  const params = useParams<Record<string, string | undefined>>();
  const shownParams = Object.entries(params).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && !/^\d+$/.test(entry[0]),
  );
  return (
    <div className={pageContainer()}>
      <Card>
        <CardHeader className="gap-3">
          <span className="grid size-10 place-items-center rounded-lg bg-muted text-muted-foreground">
            <Construction aria-hidden="true" className="size-5" />
          </span>
          <CardTitle role="heading" aria-level={1} className="text-2xl">
            {title}
          </CardTitle>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {shownParams.length > 0 && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {shownParams.map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="text-muted-foreground">{humanize(name)}</dt>
                  <dd className="font-medium" data-testid={`param-${name}`}>
                    {value}
                  </dd>
                </div>
              ))}
            </dl>
          )}
          <p className="rounded-md border border-dashed bg-muted/40 px-4 py-3 text-sm font-medium">
            This screen is not built yet.
          </p>
          {links.length > 0 && (
            <nav aria-label="Screens you can use now" className="space-y-2">
              <h2 className="text-sm font-medium">You can use these now:</h2>
              <ul className="flex flex-wrap gap-2">
                {links.map((link) => (
                  <li key={link.href}>
                    <Link
                      href={link.href}
                      className="inline-flex h-8 items-center rounded-md border px-3 text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** "wakeWord" → "Wake word". */
function humanize(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
