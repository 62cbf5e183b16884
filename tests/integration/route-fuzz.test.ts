import { Agent, request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../agent/src/features/auth/session.service.js';
import { DEFAULT_BODY_LIMIT, MAX_JSON_DEPTH } from '../../agent/src/http/body-limits.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { fuzzRequests, type FuzzRequest } from '../support/fuzz.js';
import { Client } from '../support/http.js';
import {
  SAMPLE_PARAM,
  UPSTREAM_STATUSES,
  fetchRoutes,
  isErrorShape,
  routeKey,
  type ApiRoute,
} from '../support/routes.js';

/**
 * Every route × bad input (issue 20): for each endpoint of the agent's route table, requests built
 * from the JSON Schema of its validators (tests/support/fuzz.ts), sent as the superadmin, as a member,
 * and signed out for routes that need no session. No answer may be a 500 (an upstream 502/503/504 or
 * a 507 is allowed: Home Assistant, Ollama and the engine are absent here), none may hang, and every
 * refusal carries the brief's `{message, details?}`.
 */

const SEED = 20;
/** Requests in flight at once: enough to finish in well under a minute on two shared cores. */
const CONCURRENCY = 6;
const TIMEOUT_MS = 15_000;
/** The routes whose job is to end the caller's session; fuzzing them would sign the fuzz out. */
const SIGNS_OUT = new Set(['POST /api/auth/logout']);
/**
 * Routes that dial past the machine whatever their input (see route-matrix.test.ts). The network
 * tools dial whatever a valid body names (`{}` is a valid mDNS discovery on the LAN); their bad
 * input is attacked in network-tools.test.ts.
 */
const DIALS_OUT = new Set([
  'GET /api/setup/network-check',
  'POST /api/nexus/self-test',
  'POST /api/network/tools/:tool',
]);

/**
 * The fuzz's own connections. undici's global dispatcher is shared with fetch, so a request could be
 * sent on a keep-alive connection left idle by the set-up's reads just as the agent's 5 s keep-alive
 * timeout closed it ("other side closed" on a busy CI machine, while the jobs were being built).
 */
const fuzzDispatcher = new Agent();

let agent: RunningAgent;
const cookies: Record<'superadmin' | 'user' | 'signedOut', string> = {
  superadmin: '',
  user: '',
  signedOut: '',
};

function cookieHeader(client: Client): string {
  const token = client.cookie(SESSION_COOKIE);
  if (!token) throw new Error('the helper signed in but holds no session cookie');
  return `${SESSION_COOKIE}=${token}`;
}

beforeAll(async () => {
  agent = await startAgent({
    env: {
      OLLAMA_URL: 'http://127.0.0.1:9',
      DOCKER_HOST: 'unix:///tmp/nexus-route-fuzz-no-engine.sock',
    },
  });
  const owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  const member = new Client(agent.url);
  await signUp(member, { name: 'Member', role: 'user' });
  cookies.superadmin = cookieHeader(owner);
  cookies.user = cookieHeader(member);
}, 60_000);

afterAll(async () => {
  await fuzzDispatcher.close();
  await agent?.stop();
});

interface Outcome {
  status: number;
  text: string;
}

/** One request with a fixed session cookie: answers that set cookies (a sign-in, a registration) change nothing. */
async function send(req: FuzzRequest, cookie: string): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (req.contentType) headers['content-type'] = req.contentType;
  if (cookie) headers.cookie = cookie;
  // A connection per request: the agent rightly closes one after refusing a body it did not read
  // (413), and a request that reused it would fail on the client's side, not the agent's.
  const res = await request(agent.url + req.url, {
    method: req.method as Dispatcher.HttpMethod,
    headers,
    body: req.body,
    reset: true,
    dispatcher: fuzzDispatcher,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('every route × bad input', () => {
  it('answers no 500 and only {message, details?} refusals', { timeout: 300_000 }, async () => {
    const routes = (await fetchRoutes(agent.url)).filter(
      (r) => !SIGNS_OUT.has(routeKey(r)) && !DIALS_OUT.has(routeKey(r)),
    );
    const jobs: { route: ApiRoute; role: keyof typeof cookies; req: FuzzRequest }[] = [];
    routes.forEach((route, index) => {
      const roles: (keyof typeof cookies)[] = ['superadmin', 'user'];
      if (!route.signInRequired) roles.push('signedOut');
      for (const role of roles) {
        // A caller the guard refuses before reading any input gets the cheap cases only.
        const refused =
          (role === 'signedOut' && route.signInRequired) ||
          (role === 'user' && route.roles && !route.roles.includes('user'));
        const opts = {
          seed: SEED + index,
          bodyLimit: DEFAULT_BODY_LIMIT,
          maxDepth: MAX_JSON_DEPTH,
          sampleParam: SAMPLE_PARAM,
          light: !!refused,
        };
        for (const req of fuzzRequests(route, opts)) jobs.push({ route, role, req });
      }
    });

    const problems: string[] = [];
    const byKind = new Map<string, number>();
    const byStatus = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const { route, role, req } = jobs[next++]!;
        byKind.set(req.kind, (byKind.get(req.kind) ?? 0) + 1);
        const where = `${routeKey(route)} as ${role}, ${req.kind} (${req.note.slice(0, 60)})`;
        let out: Outcome;
        try {
          out = await send(req, cookies[role]);
        } catch (err) {
          // Past the limit the agent answers 413 without reading the rest and closes the connection;
          // a client still sending may see the reset before the answer. Any other request must answer.
          if (req.kind === 'over-limit' && /closed|reset|EPIPE/i.test(String((err as Error).cause ?? err))) {
            continue;
          }
          problems.push(`${where}: no answer (${(err as Error).message} ${String((err as Error).cause)})`);
          continue;
        }
        byStatus.set(out.status, (byStatus.get(out.status) ?? 0) + 1);
        if (out.status >= 500 && !UPSTREAM_STATUSES.has(out.status))
          problems.push(`${where}: ${out.status} ${out.text.slice(0, 200)}`);
        else if (out.status >= 400 && !isErrorShape(parse(out.text)))
          problems.push(
            `${where}: ${out.status} without the {message, details?} shape: ${out.text.slice(0, 200)}`,
          );
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // The fuzz ran as the accounts it started with: no input signed them out or took their rights.
    for (const role of ['superadmin', 'user'] as const) {
      const me = await fetch(`${agent.url}/api/auth/user`, { headers: { cookie: cookies[role] } });
      expect(me.status, `${role} is still signed in after the fuzz`).toBe(200);
    }
    expect(agent.process.exitCode, 'the agent is still running').toBeNull();

    const statuses = [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    const kinds = [...byKind].map(([k, n]) => `${k} ${n}`).join(', ');
    process.stdout.write(
      `route fuzz: ${jobs.length} requests over ${routes.length} routes in ${Math.round((Date.now() - started) / 1000)} s (${kinds}; answers ${statuses})\n`,
    );
    expect(problems, problems.slice(0, 60).join('\n')).toEqual([]);
  });
});
