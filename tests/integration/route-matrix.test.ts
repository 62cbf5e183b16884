import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import {
  UPSTREAM_STATUSES,
  fetchRoutes,
  fillPath,
  isErrorShape,
  routeKey,
  type ApiRoute,
} from '../support/routes.js';

/**
 * Every route × every role (issue 20): each endpoint of the agent's own route table
 * (GET /api/docs/routes) is called signed out, as a member (role user), an admin and the
 * superadmin, with path parameters naming nothing (999999) and an empty JSON body, and the
 * answers are compared with the checked-in table route-matrix.expected.json.
 *
 * A cell is 401 (refused: not signed in), 403 (refused: the role lacks the right) or 'allowed'
 * (past the guards: whatever the route says about the empty input, e.g. 400 or 404). Routes that
 * take a credential other than a session (a device token, an API key, a webhook secret) are called
 * without it; their cells hold the exact status, since a refusal there may be a 404. 'not called'
 * marks a role for which the route is skipped because it would dial out (see DIALS_OUT).
 *
 * When routes change, regenerate the table with `npm run routes:expect` (this file, writing
 * instead of comparing) and review its diff like code: a refusal turning into 'allowed' is a hole.
 */

const EXPECTED_FILE = fileURLToPath(new URL('./route-matrix.expected.json', import.meta.url));
const UPDATE = process.env.UPDATE_ROUTE_MATRIX === '1';
const HOW_TO_UPDATE =
  'Regenerate the table with `npm run routes:expect` and review the diff of tests/integration/route-matrix.expected.json.';

const ROLES = ['signedOut', 'user', 'admin', 'superadmin'] as const;
type RoleName = (typeof ROLES)[number];
type Cell = 401 | 403 | 'allowed' | 'not called' | number;
type Row = Record<RoleName, Cell>;

/**
 * Routes whose handler reaches past the machine (DNS for the image and model registries, the
 * internet check). Test traffic stays on loopback, so roles the guards would let through do not call
 * them; the refusals (signed out, members) are still checked.
 */
const DIALS_OUT = new Set(['GET /api/setup/network-check', 'POST /api/nexus/self-test']);

/**
 * Routes open to a role by their guard whose handler then refuses it for this input on purpose:
 * members control only the Home Assistant domains and entities an admin opened (member access), and
 * none are open on this hub.
 */
const REFUSED_IN_HANDLER: Record<string, readonly RoleName[]> = {
  'POST /api/ha/services/:domain/:service': ['user'],
};

/** Routes whose job is to end the caller's session: called last for each role. */
const SIGNS_OUT = new Set(['POST /api/auth/logout']);

let agent: RunningAgent;
const clients = {} as Record<RoleName, Client>;
const accounts = {} as Record<Exclude<RoleName, 'signedOut'>, { email: string; password: string }>;

beforeAll(async () => {
  agent = await startAgent({
    env: {
      // Nothing outside: no Home Assistant, Ollama on a closed loopback port, no container engine.
      OLLAMA_URL: 'http://127.0.0.1:9',
      DOCKER_HOST: 'unix:///tmp/nexus-route-matrix-no-engine.sock',
    },
  });
  clients.signedOut = new Client(agent.url);
  clients.superadmin = new Client(agent.url);
  accounts.superadmin = await signUp(clients.superadmin, { name: 'Owner' });
  clients.admin = new Client(agent.url);
  accounts.admin = await signUp(clients.admin, { name: 'Admin', role: 'admin' });
  clients.user = new Client(agent.url);
  accounts.user = await signUp(clients.user, { name: 'Member', role: 'user' });
}, 60_000);

afterAll(async () => {
  await agent?.stop();
});

function cellFor(route: ApiRoute, status: number): Cell {
  if (route.credential) return status;
  if (status === 401 || status === 403) return status;
  // A 500 (or another status no outside system explains) is kept as is: it fails the test below.
  if (status >= 500 && !UPSTREAM_STATUSES.has(status)) return status;
  return 'allowed';
}

/** The calls in an order that keeps every session valid: the sign-out routes come last. */
function callOrder(routes: ApiRoute[]): ApiRoute[] {
  return [...routes].sort((a, b) => Number(SIGNS_OUT.has(routeKey(a))) - Number(SIGNS_OUT.has(routeKey(b))));
}

async function call(client: Client, route: ApiRoute) {
  const path = fillPath(route.path);
  // An empty JSON object for methods with a body: the minimal input, which every route that
  // restarts, restores or deletes refuses (400) or finds nothing to act on (404).
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
  return client.request(route.method, path, body);
}

async function stillSignedIn(role: Exclude<RoleName, 'signedOut'>): Promise<boolean> {
  return (await clients[role].get('/api/auth/user')).status === 200;
}

describe('every route × every role', () => {
  it('answers each role as the checked-in table says', { timeout: 180_000 }, async () => {
    const routes = await fetchRoutes(agent.url);
    const observed = new Map<string, Row>();
    const problems: string[] = [];

    for (const route of callOrder(routes)) {
      const key = routeKey(route);
      const row = {} as Row;
      for (const role of ROLES) {
        if (role !== 'signedOut' && DIALS_OUT.has(key) && (route.roles?.includes(role) ?? true)) {
          row[role] = 'not called';
          continue;
        }
        const res = await call(clients[role], route);
        row[role] = cellFor(route, res.status);
        if (res.status >= 400 && !isErrorShape(res.json)) {
          problems.push(
            `${key} as ${role}: ${res.status} without the {message, details?} shape: ${res.text.slice(0, 200)}`,
          );
        }
        if (res.status >= 500 && !UPSTREAM_STATUSES.has(res.status)) {
          problems.push(`${key} as ${role}: ${res.status} ${res.text.slice(0, 200)}`);
        }
        if (agent.process.exitCode !== null || agent.process.signalCode !== null) {
          throw new Error(
            `${key} as ${role} stopped the agent: give the route an input it refuses in this test, or make its empty input a 400`,
          );
        }
        if (role !== 'signedOut' && !(await stillSignedIn(role))) {
          if (!SIGNS_OUT.has(key)) {
            problems.push(
              `${key} as ${role} ended the caller's session; if that is its job, add it to SIGNS_OUT in route-matrix.test.ts`,
            );
          }
          const login = await clients[role].post('/api/auth/login', {
            email: accounts[role].email,
            password: TEST_PASSWORD,
          });
          expect(login.status, login.text).toBe(200);
        }
      }
      observed.set(key, row);
    }

    // The table must agree with the guards the route table declares, whatever was regenerated.
    for (const route of routes) {
      const row = observed.get(routeKey(route))!;
      const key = routeKey(route);
      if (route.credential) {
        // Called without its credential: refused, whoever calls (a session may open some of them).
        if (!route.signInRequired && typeof row.signedOut === 'number' && row.signedOut < 400) {
          problems.push(`${key} signed out and without its ${route.credential} answered ${row.signedOut}`);
        }
        continue;
      }
      if (route.signInRequired && row.signedOut !== 401) {
        problems.push(`${key} requires sign-in but answered ${row.signedOut} signed out`);
      }
      for (const role of ['user', 'admin', 'superadmin'] as const) {
        const declared = route.roles === null || route.roles.includes(role);
        const cell = row[role];
        if (!declared && cell !== 403) problems.push(`${key} is not for ${role} but answered ${cell}`);
        const handlerRefuses = REFUSED_IN_HANDLER[key]?.includes(role) && cell === 403;
        if (declared && (cell === 401 || cell === 403) && !handlerRefuses)
          problems.push(`${key} is for ${role} but refused it: ${cell}`);
      }
    }

    const table = Object.fromEntries([...observed].sort(([a], [b]) => a.localeCompare(b)));
    if (UPDATE) {
      // The same text prettier writes, so `npm run format` leaves the regenerated table alone.
      fs.writeFileSync(EXPECTED_FILE, `${JSON.stringify(table, null, 2)}\n`);
      process.stdout.write(
        `route matrix: wrote ${observed.size} routes × ${ROLES.length} roles to ${EXPECTED_FILE}\n`,
      );
    }
    expect(problems, problems.join('\n')).toEqual([]);
    if (UPDATE) return;

    const expected = JSON.parse(fs.readFileSync(EXPECTED_FILE, 'utf8')) as Record<string, Row>;
    const missing = [...observed.keys()].filter((k) => !(k in expected));
    const gone = Object.keys(expected).filter((k) => !observed.has(k));
    expect(missing, `routes without an expectation: ${missing.join(', ')}. ${HOW_TO_UPDATE}`).toEqual([]);
    expect(
      gone,
      `expectations for routes that no longer exist: ${gone.join(', ')}. ${HOW_TO_UPDATE}`,
    ).toEqual([]);
    const differing = [...observed]
      .filter(([k, row]) => JSON.stringify(row) !== JSON.stringify(expected[k]))
      .map(([k, row]) => `${k}: expected ${JSON.stringify(expected[k])}, got ${JSON.stringify(row)}`);
    expect(differing, `${differing.join('\n')}\n${HOW_TO_UPDATE}`).toEqual([]);
    process.stdout.write(
      `route matrix: ${observed.size} routes × ${ROLES.length} roles = ${observed.size * ROLES.length} cells\n`,
    );
  });
});
