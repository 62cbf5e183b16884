/**
 * Benchmark: loading as a person on a phone sees it, beside Netdata's dashboard in the same run.
 *
 *   npx tsx scripts/bench/web-vitals.ts [--loads 5] [--quiet-ms 2000] [--profiles home,remote]
 *                                       [--no-netdata] [--build] [--waterfall] [--compare-web <dist>]
 *
 * Debian's Chromium (as the browser tests launch it) at 390 × 844, device scale 3, a phone's user
 * agent, the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate), every load in a fresh browser
 * context (cold cache, service workers blocked so sw.js never answers a load). Two network
 * profiles: home (loopback, unthrottled) and remote (CDP Network.emulateNetworkConditions:
 * 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency: a phone over the VPN). Median (min–max) of --loads
 * loads per figure; the pages are loaded in turn (/, /auth, …, Netdata, then again) so the machine's
 * load falls on every page alike.
 *
 * Figures:
 * - LCP of `/` and `/auth` (signed out) and of Netdata's dashboard: the last
 *   'largest-contentful-paint' entry, observed from before the page's first script, read after the
 *   load event once an LCP was seen and none came for --quiet-ms. LCP counts what was painted,
 *   even briefly: Netdata's hidden dialogs show unstyled while its CSS loads over the remote link,
 *   so its LCP there is that flash; the load event (also shown) says when the page was complete.
 * - Input-ready, /auth: from navigation start until a character typed into the e-mail field lands
 *   in it. Playwright types it (locator.pressSequentially: real key events through CDP, which wait
 *   for the page's main thread) as soon as the field exists and is enabled; the page records when
 *   the `input` event arrives. Separate loads from the LCP ones, since input ends LCP.
 * - Dashboard values, /dashboard signed in: from navigation start until the first live figure is
 *   painted: whichever comes first of the Nexus card's `[data-metric]` percentage (from GET
 *   /api/nexus/status) and System Health's live CPU (`[data-testid="live-cpu"]`, the first
 *   WebSocket metrics sample); both are printed below the table.
 * - Bytes on the wire: the sum of CDP Network.loadingFinished encodedDataLength (headers included),
 *   JavaScript (resource type Script) separately; for LCP loads until the LCP is read, for the
 *   dashboard until its first value. 1 kB = 1,000 bytes.
 *
 * Starts the built agent (production settings, a fresh data directory; `npm run build` first when
 * a dist is missing or older than the sources, or with --build) and Netdata (installed with apt-get
 * when missing, on loopback with its own directories and a free port), and stops both at the end.
 * Only loopback is reached: Chromium resolves no other host name.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Cookie } from '@playwright/test';
import { startAgent, type RunningAgent } from '../../tests/support/agent.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { applianceLaunch } from './appliance-launch.js';

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '5' },
    'quiet-ms': { type: 'string', default: '2000' },
    profiles: { type: 'string', default: 'home,remote' },
    'no-netdata': { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
    /** Print every load's requests (start → end, ms from navigation) and its marks: where the time goes. */
    waterfall: { type: 'boolean', default: false },
    /**
     * Another build of the console (a web/dist folder, say main's) served by a second agent and
     * loaded in the same rounds, page by page in turn with this one's: a change measured side by
     * side, under the same load of the machine.
     */
    'compare-web': { type: 'string' },
  },
});
const LOADS = Number(args.loads);
const QUIET_MS = Number(args['quiet-ms']);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PASSWORD = 'correct horse battery staple';

interface Profile {
  name: string;
  title: string;
  /** CDP Network.emulateNetworkConditions, or none. */
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
const PROFILES: Profile[] = [
  { name: 'home', title: 'Home network (loopback, no network throttling)' },
  {
    name: 'remote',
    title: 'Remote link (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency)',
    network: { latency: 150, downloadThroughput: 200_000, uploadThroughput: 750_000 / 8 },
  },
].filter((p) => args.profiles.split(',').includes(p.name));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------
// The agent and Netdata

/** The newest modification time under a path (files only), 0 when it does not exist. */
function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

/** Builds when asked, or when a dist is missing or older than what it is built from. */
function buildIfStale() {
  const web = path.join(repoRoot, 'web');
  const agent = path.join(repoRoot, 'agent');
  const webBuilt = fs.existsSync(path.join(web, 'dist/index.html')) ? newest(path.join(web, 'dist')) : 0;
  const agentBuilt = fs.existsSync(path.join(agent, 'dist/main.js')) ? newest(path.join(agent, 'dist')) : 0;
  const sources = Math.max(
    newest(path.join(web, 'src')),
    newest(path.join(web, 'public')),
    newest(path.join(web, 'index.html')),
    newest(path.join(web, 'vite.config.ts')),
    newest(path.join(agent, 'src')),
  );
  if (args.build || webBuilt < sources || agentBuilt < newest(path.join(agent, 'src'))) {
    process.stdout.write('Building (npm run build)…\n');
    execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

/** Registers the hub's owner through the API and returns the session cookies for a browser context. */
async function signUp(agent: RunningAgent): Promise<Cookie[]> {
  // 409: nothing to skip (an account exists already). The account alone would end the wizard too.
  const skip = await fetch(`${agent.url}/api/setup/skip`, { method: 'POST' });
  if (!skip.ok && skip.status !== 409) throw new Error(`setup skip: ${skip.status} ${await skip.text()}`);
  const res = await fetch(`${agent.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Owner', email: 'bench@example.org', password: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((raw) => {
    const [pair] = raw.split(';');
    const eq = pair!.indexOf('=');
    return {
      name: pair!.slice(0, eq),
      value: pair!.slice(eq + 1),
      domain: '127.0.0.1',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Lax',
    };
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Netdata {
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's netdata on loopback, a free port, its own directories (RAM database, no statsd
 * listener), in the foreground so it ends with the benchmark.
 */
async function startNetdata(): Promise<Netdata> {
  if (!hasCommand('netdata')) {
    process.stdout.write('Installing Debian’s netdata (apt-get)…\n');
    execFileSync(
      'apt-get',
      ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', 'netdata'],
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitals-netdata-'));
  const dirs = Object.fromEntries(
    ['cache', 'lib', 'log', 'lock'].map((name) => {
      fs.mkdirSync(path.join(dir, name));
      return [name, path.join(dir, name)];
    }),
  );
  const port = await freePort();
  const user = os.userInfo().username;
  const set = (section: string, option: string, value: string) => ['-W', 'set', section, option, value];
  const child = spawn(
    'netdata',
    [
      '-D',
      ...['-u', user, '-i', '127.0.0.1', '-p', String(port)],
      ...Object.entries(dirs).flatMap(([name, p]) => set('directories', name, p)),
      ...set('global', 'memory mode', 'ram'),
      ...set('statsd', 'enabled', 'no'),
    ],
    { cwd: dir, stdio: 'ignore', detached: true },
  );
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`netdata exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error('netdata did not come up');
    await sleep(100);
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(10_000)]);
        // Its plugins run in its process group (detached above): end any it left behind.
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is gone already
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One load

type Mode = 'lcp' | 'input' | 'dashboard';

interface Load {
  lcp?: number;
  /** What the LCP was: tag, and the start of its text. */
  lcpElement?: string;
  /** The load event (navigation timing loadEventStart). */
  loaded?: number;
  /** /auth: the e-mail field exists and is enabled (painted frame). */
  field?: number;
  /** /auth: a typed character landed in the field. */
  typed?: number;
  /** /dashboard: the first of the two below, the first status figure and live CPU sample painted. */
  first?: number;
  values?: number;
  live?: number;
  bytes: number;
  jsBytes: number;
}

interface PageMarks {
  lcp: number;
  lcpElement: string;
  field: number | null;
  typed: number | null;
  values: number | null;
  live: number | null;
}

/**
 * Runs in the page before its own scripts: observes LCP, and records (at the next animation frame,
 * i.e. the frame that paints it) when the watched elements first hold what is measured.
 */
function pageInstruments(mode: Mode) {
  const marks: PageMarks = { lcp: 0, lcpElement: '', field: null, typed: null, values: null, live: null };
  (window as unknown as { __vitals: PageMarks }).__vitals = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) {
      marks.lcp = entry.startTime;
      const text = entry.element?.textContent?.trim().replace(/\s+/g, ' ').slice(0, 30) ?? '';
      marks.lcpElement = `<${entry.element?.tagName.toLowerCase() ?? '?'}> ${text}`.trim();
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  if (mode === 'lcp') return;
  const painted = (key: 'field' | 'values' | 'live') => {
    if (marks[key] !== null) return;
    marks[key] = -1;
    requestAnimationFrame(() => (marks[key] = performance.now()));
  };
  const check = () => {
    if (mode === 'input') {
      const field = document.querySelector<HTMLInputElement>('input[type="email"]');
      if (field && !field.disabled) painted('field');
    } else {
      const percent = /^\d+%$/;
      const metrics = Array.from(document.querySelectorAll('[data-metric]'));
      if (metrics.some((el) => percent.test(el.textContent?.trim() ?? ''))) painted('values');
      const live = document.querySelector('[data-testid="live-cpu"]');
      if (live && percent.test(live.textContent?.trim() ?? '')) painted('live');
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['disabled'],
  });
  document.addEventListener(
    'input',
    (event) => {
      if (marks.typed === null && (event.target as HTMLInputElement).type === 'email') {
        marks.typed = performance.now();
      }
    },
    true,
  );
}

/** A phone's user agent on this Chromium's version (sites may serve phones differently). */
function phoneUserAgent(browser: Browser) {
  return `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Mobile Safari/537.36`;
}

async function loadOnce(
  browser: Browser,
  profile: Profile,
  url: string,
  mode: Mode,
  cookies: Cookie[] = [],
): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: phoneUserAgent(browser),
    serviceWorkers: 'block',
  });
  try {
    await context.addCookies(cookies);
    // tsx compiles with esbuild's keepNames, which wraps inner functions in a `__name` helper the
    // page does not have: the page gets a stand-in.
    await context.addInitScript({
      content: `var __name = (f) => f; (${pageInstruments.toString()})(${JSON.stringify(mode)});`,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    if (profile.network) {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    }
    // Bytes per finished request, stamped with CDP's monotonic clock (seconds).
    let navigationStart: number | undefined;
    const types = new Map<string, string>();
    const finished: { at: number; bytes: number; js: boolean }[] = [];
    cdp.on('Network.requestWillBeSent', (e) => {
      if (navigationStart === undefined && e.type === 'Document') navigationStart = e.timestamp;
    });
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) =>
      finished.push({ at: e.timestamp, bytes: e.encodedDataLength, js: types.get(e.requestId) === 'Script' }),
    );
    const bytesUntil = (ms?: number) => {
      const counted = finished.filter(
        (f) => ms === undefined || navigationStart === undefined || (f.at - navigationStart) * 1000 <= ms,
      );
      return {
        bytes: counted.reduce((s, f) => s + f.bytes, 0),
        jsBytes: counted.reduce((s, f) => s + (f.js ? f.bytes : 0), 0),
      };
    };
    const marks = () => page.evaluate(() => (window as unknown as { __vitals: PageMarks }).__vitals);
    const timeout = 120_000;

    if (mode === 'lcp') {
      await page.goto(url, { waitUntil: 'load', timeout });
      // A single-page app may paint its largest element well after the load event: read the LCP
      // once one was observed and no later one came for QUIET_MS.
      let m = await marks();
      let quietSince = Date.now();
      for (const deadline = Date.now() + timeout; Date.now() < deadline;) {
        await sleep(100);
        const next = await marks();
        if (next.lcp !== m.lcp) quietSince = Date.now();
        m = next;
        if (m.lcp > 0 && Date.now() - quietSince >= QUIET_MS) break;
      }
      const loaded = await page.evaluate(
        () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart,
      );
      return { lcp: m.lcp, lcpElement: m.lcpElement, loaded, ...bytesUntil() };
    }
    if (mode === 'input') {
      await page.goto(url, { waitUntil: 'commit', timeout });
      await page.locator('input[type="email"]').pressSequentially('a', { timeout });
      await page.waitForFunction(() => (window as unknown as { __vitals: PageMarks }).__vitals.typed, null, {
        timeout,
      });
      const m = await marks();
      return {
        // -1: the field was seen but the frame that paints it has not come yet.
        field: m.field !== null && m.field >= 0 ? m.field : undefined,
        typed: m.typed ?? undefined,
        ...bytesUntil(m.typed ?? undefined),
      };
    }
    await page.goto(url, { waitUntil: 'commit', timeout });
    // Asked with a one-line expression over CDP, not page.waitForFunction: that one first evaluates
    // Playwright's injected script (about 100 ms of the slowed main thread, in the middle of the
    // load) — work a phone opening the dashboard does not do.
    for (const deadline = Date.now() + timeout; ; await sleep(50)) {
      const { result } = await cdp.send('Runtime.evaluate', {
        expression: '(v => !!v && v.values > 0 && v.live > 0)(window.__vitals)',
        returnByValue: true,
      });
      if (result.value === true) break;
      if (Date.now() > deadline) throw new Error(`${url}: no dashboard values within ${timeout} ms`);
    }
    const m = await marks();
    const first = Math.min(m.values!, m.live!);
    return { first, values: m.values!, live: m.live!, ...bytesUntil(first) };
  } finally {
    if (args.waterfall)
      await printWaterfall(context, url, mode).catch((e: unknown) =>
        process.stdout.write(`waterfall: ${String(e)}\n`),
      );
    await context.close();
  }
}

/** --waterfall: the page's requests as Resource Timing saw them, and its marks, in ms from navigation. */
async function printWaterfall(context: BrowserContext, url: string, mode: Mode) {
  const page = context.pages()[0];
  if (!page) return;
  // A string, not a function: tsx's keepNames would wrap the inner arrow in a helper the page lacks.
  const lines = await page.evaluate<string[]>(`(() => {
    const ms = (n) => Math.round(n).toString().padStart(5);
    const nav = performance.getEntriesByType('navigation')[0];
    const rows = [ms(0) + ' → ' + ms(nav.responseEnd) + '  document'];
    for (const r of performance.getEntriesByType('resource')) {
      rows.push(ms(r.startTime) + ' → ' + ms(r.responseEnd) + '  ' + new URL(r.name).pathname + ' (' + r.initiatorType + ', ' + r.encodedBodySize + ' B)');
    }
    rows.push('domContentLoaded ' + ms(nav.domContentLoadedEventStart) + ', load ' + ms(nav.loadEventStart));
    rows.push('marks ' + JSON.stringify(window.__vitals));
    return rows;
  })()`);
  process.stdout.write(`\n${mode} ${url}\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------
// Figures

interface Subject {
  label: string;
  url: string;
  modes: Mode[];
  cookies?: Cookie[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (xs: number[]) =>
  xs.length === 0
    ? '—'
    : `${(median(xs) / 1000).toFixed(2)} s (${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)})`;
const kB = (n: number) => Math.round(n / 1000).toLocaleString('en-US');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n');
}

async function runProfile(browser: Browser, profile: Profile, subjects: Subject[]) {
  const before = loadAverage();
  const results = new Map<string, Load[]>();
  for (let round = 0; round < LOADS; round++) {
    for (const subject of subjects) {
      for (const mode of subject.modes) {
        const key = `${subject.label}|${mode}`;
        const load = await loadOnce(browser, profile, subject.url, mode, subject.cookies);
        results.set(key, [...(results.get(key) ?? []), load]);
      }
    }
  }
  const pick = (label: string, mode: Mode, key: keyof Load) =>
    (results.get(`${label}|${mode}`) ?? [])
      .map((l) => l[key])
      .filter((v): v is number => typeof v === 'number');
  const rows = [['page', 'LCP', 'load event', 'input-ready', 'dashboard values', 'kB on the wire (JS kB)']];
  const notes: string[] = [];
  for (const s of subjects) {
    const bytesMode: Mode = s.modes.includes('lcp') ? 'lcp' : 'dashboard';
    const bytes = pick(s.label, bytesMode, 'bytes');
    const js = pick(s.label, bytesMode, 'jsBytes');
    const first = pick(s.label, 'dashboard', 'first');
    rows.push([
      s.label,
      seconds(pick(s.label, 'lcp', 'lcp')),
      seconds(pick(s.label, 'lcp', 'loaded')),
      seconds(pick(s.label, 'input', 'typed')),
      seconds(first),
      bytes.length > 0 ? `${kB(median(bytes))} (${kB(median(js))})` : '—',
    ]);
    const elements = (results.get(`${s.label}|lcp`) ?? []).map((l) => l.lcpElement ?? '');
    if (elements.length > 0) {
      const counts = new Map<string, number>();
      for (const e of elements) counts.set(e, (counts.get(e) ?? 0) + 1);
      const described = [...counts].map(([e, n]) => `${e} (${n}×)`).join(', ');
      notes.push(`${s.label}: the LCP element was ${described}`);
    }
    if (first.length > 0) {
      notes.push(
        `${s.label}: the Nexus card's first figure (GET /api/nexus/status) at ` +
          `${seconds(pick(s.label, 'dashboard', 'values'))}, the first live CPU sample (WebSocket) at ` +
          `${seconds(pick(s.label, 'dashboard', 'live'))}`,
      );
    }
    if (s.modes.includes('input')) {
      notes.push(
        `${s.label}: the e-mail field exists and is enabled at ${seconds(pick(s.label, 'input', 'field'))}; ` +
          `${kB(median(pick(s.label, 'input', 'bytes')))} kB had arrived when the typed character landed`,
      );
    }
  }
  process.stdout.write(
    `\n${profile.title}; 4× CPU, 390 × 844 @3x, cold cache; median (min–max) of ${LOADS}\n` +
      `${table(rows)}\n${notes.map((n) => `  ${n}\n`).join('')}` +
      `  load average (1, 5, 15 min): before ${before}, after ${loadAverage()}\n`,
  );
}

async function main() {
  buildIfStale();
  process.stdout.write(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}\n`,
  );
  const netdata = args['no-netdata'] ? undefined : await startNetdata();
  let agent: RunningAgent | undefined;
  let compared: RunningAgent | undefined;
  let browser: Browser | undefined;
  try {
    // As a hub runs it: the systemd unit's node flags, memory settings and bundle.
    const launch = applianceLaunch(repoRoot);
    const start = (env: Record<string, string> = {}) =>
      startAgent({
        env: { NODE_ENV: 'production', ...launch.env, ...env },
        nodeArgs: launch.nodeArgs,
        entry: launch.entry,
      });
    agent = await start();
    const cookies = await signUp(agent);
    const compareWeb = args['compare-web'] && path.resolve(args['compare-web']);
    if (compareWeb) compared = await start({ NEXUS_WEB_DIST: compareWeb });
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      // Nothing but loopback resolves: Netdata's dashboard would otherwise call its registry.
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    });
    process.stdout.write(`Chromium ${browser.version()} (${CHROMIUM_PATH}); agent ${agent.url}\n`);
    const subjects: Subject[] = [
      { label: '/', url: `${agent.url}/`, modes: ['lcp'] },
      { label: '/auth', url: `${agent.url}/auth`, modes: ['lcp', 'input'] },
      { label: '/dashboard (signed in)', url: `${agent.url}/dashboard`, modes: ['dashboard'], cookies },
    ];
    if (compared) {
      const theirCookies = await signUp(compared);
      const theirs = (s: Subject): Subject => ({
        ...s,
        label: `${s.label} [${args['compare-web']}]`,
        url: s.url.replace(agent!.url, compared!.url),
        cookies: s.cookies && theirCookies,
      });
      subjects.splice(0, subjects.length, ...subjects.flatMap((s) => [s, theirs(s)]));
    }
    if (netdata) subjects.push({ label: 'Netdata dashboard', url: netdata.url, modes: ['lcp'] });
    for (const profile of PROFILES) await runProfile(browser, profile, subjects);
  } finally {
    await browser?.close();
    for (const running of [agent, compared]) {
      await running?.stop();
      if (running) fs.rmSync(running.dataDir, { recursive: true, force: true });
    }
    await netdata?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
