import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import type { ApiRoute } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { scrollToHash } from '@/features/navigation/components/nav-link';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import { apiRoutesQueryOptions } from '@/data/docs';
import { Prose, PublicPage } from './page-layout';

const METHOD_STYLE: Record<string, string> = {
  GET: 'border-success/40 bg-success/10 text-success',
  POST: 'border-primary/40 bg-primary/10 text-primary',
  // The warning hue is too light for text on a light background; it marks the border instead.
  PUT: 'border-warning bg-warning/10 text-foreground',
  PATCH: 'border-warning bg-warning/10 text-foreground',
  DELETE: 'border-destructive/40 bg-destructive/10 text-destructive',
};

const INPUT_PART_LABEL: Record<string, string> = {
  json: 'JSON body',
  form: 'Form body',
  query: 'Query string',
  param: 'Path parameters',
  header: 'Headers',
  cookie: 'Cookies',
};

/**
 * What the endpoint accepts, as the JSON Schema its validators publish; a native disclosure, so it
 * opens with the keyboard and stays out of the way until asked for.
 */
function RouteInput({ route }: { route: ApiRoute }) {
  const parts = Object.entries(route.input ?? {}).filter(([, schema]) => schema);
  if (parts.length === 0) return null;
  return (
    <details className="mt-1 text-xs" data-testid="api-route-input">
      <summary className="cursor-pointer text-muted-foreground select-none">
        Input ({parts.map(([part]) => INPUT_PART_LABEL[part] ?? part).join(', ')})
      </summary>
      {parts.map(([part, schema]) => (
        <div key={part} className="mt-2">
          <div className="font-medium">{INPUT_PART_LABEL[part] ?? part}</div>
          <pre className="mt-1 max-h-80 overflow-auto rounded-md bg-muted p-2 font-mono whitespace-pre-wrap break-all">
            {JSON.stringify(schema, null, 2)}
          </pre>
        </div>
      ))}
    </details>
  );
}

function accessLabel(route: ApiRoute): string {
  if (!route.signInRequired) return route.credential ?? 'Public';
  if (!route.roles) return route.credential ? `Signed in or ${lowerFirst(route.credential)}` : 'Signed in';
  if (route.roles.length === 2 && route.roles.includes('admin') && route.roles.includes('superadmin')) {
    return 'Admins';
  }
  return route.roles.join(', ');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * /docs: how to use the console, and the API reference. The endpoint list comes from the agent
 * itself (GET /api/docs/routes reads its route table), so it always matches the running hub.
 */
export function DocsPage() {
  const routes = useQuery(apiRoutesQueryOptions());
  const groups = useMemo(() => {
    const byGroup = new Map<string, ApiRoute[]>();
    for (const route of routes.data?.routes ?? []) {
      byGroup.set(route.group, [...(byGroup.get(route.group) ?? []), route]);
    }
    return [...byGroup.entries()];
  }, [routes.data]);

  // A link to /docs#api arrives before the list does; go to the section once it is there.
  const loaded = routes.isSuccess;
  useEffect(() => {
    if (window.location.hash) scrollToHash(window.location.hash);
  }, [loaded]);

  return (
    <PublicPage
      title="Documentation"
      intro="Using the console, and the API the hub offers to your own programs."
    >
      <nav aria-label="On this page" className="mb-8 flex flex-wrap gap-2 text-sm">
        {[
          ['#user-guide', 'User guide'],
          ['#accounts', 'Accounts and roles'],
          ['#api', 'API'],
        ].map(([href, label]) => (
          <a
            key={href}
            href={href}
            className="rounded-md border px-3 py-1 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
          >
            {label}
          </a>
        ))}
      </nav>

      <Prose>
        <h2 id="user-guide">User guide</h2>
        <p>
          The top bar leads everywhere. <strong>Dashboard</strong> shows the hub at a glance: Nexus,
          satellites, language models, Home Assistant and VPN. <strong>Gallery</strong> holds your AI flows.{' '}
          <strong>Tools &amp; Utilities</strong> groups the rest:
        </p>
        <ul>
          <li>
            <strong>AI &amp; Automation</strong>: the LLM Control Center, the hub's Ollama, behavioural
            analytics and wake-word training.
          </li>
          <li>
            <strong>Device Management</strong>: the Nexus hub itself and its satellites.
          </li>
          <li>
            <strong>Home Assistant</strong>: devices, connection setup, logbook, entities and a connection
            test.
          </li>
          <li>
            <strong>Network &amp; Security</strong>: VPN connections, UniFi Teleport and network information.
          </li>
          <li>
            <strong>System Tools</strong>: diagnostics, session simulations, settings and notifications.
          </li>
        </ul>
        <p>
          The bell in the top bar lists the hub's notifications to you; the theme button switches between
          light and dark and remembers your choice in this browser.
        </p>

        <h2 id="accounts">Accounts and roles</h2>
        <p>
          The first account on a hub is its <strong>Super Admin</strong>. Later accounts are users; an
          administrator can make them <strong>Admin</strong> in User Management. Administrators manage
          accounts; only a Super Admin grants or removes the Super Admin role. Two-factor authentication uses
          6-digit codes from any authenticator app. See <Link href="/help">Help</Link> for a forgotten
          password.
        </p>

        <h2 id="api">API</h2>
        <p>
          Everything the console does goes through the hub's JSON API under <code>/api</code>, so your own
          programs can do the same. Sign in with <code>POST /api/auth/login</code> and a JSON body{' '}
          <code>{'{"email", "password", "totpCode"?}'}</code>; the answer sets a session cookie that later
          requests send back. Requests with a body send <code>Content-Type: application/json</code>.
        </p>
        <p>
          Errors answer with the right HTTP status and a JSON body <code>{'{"message", "details"?}'}</code>:
          400 invalid input (the validation issues are in <code>details</code>), 401 not signed in, 403 not
          allowed, 404 not found, 409 conflict, 413 too large, 429 too many requests, 502 and 504 when a
          system behind the hub (Home Assistant, Ollama, Docker) failed or timed out.
        </p>
      </Prose>

      <section aria-labelledby="endpoints-heading" className="mt-8 space-y-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="endpoints-heading" className="text-lg font-semibold">
            Endpoints
          </h3>
          {routes.data && (
            <p className="text-sm text-muted-foreground">
              {routes.data.routes.length} endpoints, read from the running hub (version {routes.data.version})
            </p>
          )}
        </div>
        <RefreshError what="the API reference" query={routes} />
        {routes.isLoading ? (
          <div role="status" className="space-y-2">
            <span className="sr-only">Loading the API reference</span>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-9 w-full" />
            ))}
          </div>
        ) : routes.isLoadingError ? (
          <Alert variant="destructive">
            <AlertTitle>Could not load the API reference</AlertTitle>
            <AlertDescription>{errorMessage(routes.error)}</AlertDescription>
          </Alert>
        ) : (
          groups.map(([group, list]) => (
            <div key={group} className="overflow-hidden rounded-lg border">
              <h4 className="border-b bg-muted/50 px-4 py-2 font-mono text-sm font-semibold">/api/{group}</h4>
              <table className="w-full text-sm">
                <caption className="sr-only">Endpoints under /api/{group}</caption>
                <thead className="sr-only">
                  <tr>
                    <th scope="col">Method</th>
                    <th scope="col">Path</th>
                    <th scope="col">Who may call it</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((route) => (
                    <tr
                      key={`${route.method} ${route.path}`}
                      className="border-b last:border-0"
                      data-testid="api-route"
                    >
                      <td className="w-24 px-4 py-2">
                        <Badge variant="outline" className={cn('font-mono', METHOD_STYLE[route.method])}>
                          {route.method}
                        </Badge>
                      </td>
                      <td className="px-2 py-2">
                        <span className="font-mono break-all">{route.path}</span>
                        <RouteInput route={route} />
                      </td>
                      <td className="w-28 px-4 py-2 text-right text-muted-foreground">
                        {accessLabel(route)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))
        )}
      </section>
    </PublicPage>
  );
}
