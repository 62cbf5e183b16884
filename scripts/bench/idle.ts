/**
 * Idle: the agent with nobody signed in (its metrics sampled every second), beside Netdata and
 * Glances on the same machine, in one run.
 *
 *   npx tsx scripts/bench/idle.ts [--seconds 60] [--settle-seconds 20] [--only agent] [--no-build]
 *                                 [--base <another checkout, built>] [--node-flags "<flags>"]
 *                                 [--node-args "<flags>"] [--together]
 *
 * Builds and starts the real agent as the appliance does (production settings, the memory settings
 * of systemd/nexus-agent.service, loopback only, no Docker engine) on a fresh
 * data directory that a first start made (as a hub is between restarts: its database, CA and HTTPS
 * certificate exist), waits for it to settle, then measures for --seconds:
 * - CPU, % of one core: utime+stime from /proc/<pid>/stat over the window, of the process and of
 *   every descendant alive at both ends, plus the CPU of children it reaped meanwhile (cutime+cstime);
 * - RSS (VmRSS) and PSS (smaps_rollup) of the process tree, sampled every 5 s; the mean is shown.
 * Then, one after the other and each for --seconds: Debian's `netdata` (its own cache, lib, log
 * and run directories, listening on 127.0.0.1 only, cloud and anonymous statistics off) and
 * `glances -w` (web server mode with python3-bottle, on 127.0.0.1; nobody opens its page, so it is
 * as idle as Netdata with no dashboard open). Both are installed with apt-get when missing; when
 * that is not possible, the table says what is missing. Prints one table and the load average.
 * Everything it started is stopped.
 *
 * Goal (issue 26): the agent at most 0.3 % of a core and 70 MB RSS.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applianceLaunch, nodeFlags, type ApplianceLaunch } from './appliance-launch.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    'settle-seconds': { type: 'string', default: '20' },
    only: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    // Another checkout of the repository, built (`npx tsc -b agent` there), measured first: a before
    // and after in one run.
    base: { type: 'string' },
    // With --base: both agents started and measured at the same time, under the same load (the
    // machine is shared; one after the other, the load and V8's first mark-compact move RSS by MBs).
    together: { type: 'boolean', default: false },
    // NODE_OPTIONS instead of the appliance's (trying V8 settings): --node-flags="--max-semi-space-size=1".
    'node-flags': { type: 'string' },
    // node's command-line flags instead of the appliance's ExecStart ones (V8 flags NODE_OPTIONS
    // does not allow): --node-args="--single-threaded"; --node-args="" for none.
    'node-args': { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const SETTLE_SECONDS = Number(values['settle-seconds']);
const SAMPLE_MS = 5_000;
const CLOCK_TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = 1_000_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): number[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
  } catch {
    return null; // gone meanwhile
  }
}

/** The process and its descendants (walking each task's children list). */
function tree(root: number): number[] {
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let children: string;
      try {
        children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of children.trim().split(/\s+/).filter(Boolean)) walk(Number(c));
    }
  };
  walk(root);
  return [...new Set(out)];
}

/** CPU ticks per pid (own) and, for the whole tree, the ticks of children already reaped. */
function cpuSnapshot(root: number): Map<number, { own: number; reaped: number }> {
  const m = new Map<number, { own: number; reaped: number }>();
  for (const pid of tree(root)) {
    const f = statFields(pid);
    if (f) m.set(pid, { own: f[11]! + f[12]!, reaped: f[13]! + f[14]! });
  }
  return m;
}

function kb(file: string, key: string): number {
  try {
    const line = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${key}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function memory(root: number): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const pid of tree(root)) {
    rss += kb(`/proc/${pid}/status`, 'VmRSS');
    pss += kb(`/proc/${pid}/smaps_rollup`, 'Pss');
  }
  return { rss, pss };
}

interface Row {
  name: string;
  cpu?: number;
  rss?: number;
  pss?: number;
  processes?: number;
  note?: string;
}

async function measure(name: string, pid: number): Promise<Row> {
  const before = cpuSnapshot(pid);
  const started = performance.now();
  const rss: number[] = [];
  const pss: number[] = [];
  let processes = 0;
  while (performance.now() - started < SECONDS * 1000) {
    const m = memory(pid);
    rss.push(m.rss);
    pss.push(m.pss);
    processes = Math.max(processes, tree(pid).length);
    await sleep(Math.min(SAMPLE_MS, SECONDS * 1000 - (performance.now() - started)));
  }
  const seconds = (performance.now() - started) / 1000;
  const after = cpuSnapshot(pid);
  let ticks = 0;
  for (const [p, a] of after) {
    const b = before.get(p);
    // A process born inside the window counts from zero.
    ticks += a.own - (b?.own ?? 0) + (a.reaped - (b?.reaped ?? 0));
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    name,
    cpu: (ticks / CLOCK_TICKS_PER_SECOND / seconds) * 100,
    rss: mean(rss),
    pss: mean(pss),
    processes,
  };
}

function waitForHttp(url: string, child: ChildProcess, seconds = 60): Promise<void> {
  return (async () => {
    for (let i = 0; i < seconds * 10; i += 1) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
      if (
        await fetch(url).then(
          (r) => r.status < 500,
          () => false,
        )
      )
        return;
      await sleep(100);
    }
    throw new Error(`${url} did not answer in ${seconds} s`);
  })();
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Where a command lives (sbin included: Debian puts netdata there), or null. */
function which(cmd: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin']) {
    const p = path.join(dir, cmd);
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

/** Installs Debian packages when apt-get is there; returns what is still missing and why. */
function aptInstall(packages: string[]): string | null {
  const missing = packages.filter(
    (p) =>
      spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout !==
      'install ok installed',
  );
  if (missing.length === 0) return null;
  if (!which('apt-get')) return `${missing.join(', ')} not installed and apt-get unavailable`;
  say(`installing ${missing.join(' ')} with apt-get…`);
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.status !== 0)
    return `apt-get install ${missing.join(' ')} failed: ${r.stderr.trim().split('\n').pop()}`;
  return null;
}

/**
 * How the appliance starts the agent of the checkout at `root` (its systemd unit: appliance-launch.ts),
 * with --node-flags replacing NODE_OPTIONS and --node-args node's command-line flags.
 */
function launchOf(root: string): ApplianceLaunch {
  const launch = applianceLaunch(root);
  if (values['node-flags'] !== undefined) launch.env.NODE_OPTIONS = values['node-flags'];
  if (values['node-args'] !== undefined) launch.nodeArgs = nodeFlags(values['node-args']);
  return launch;
}

function startAgent(root: string, launch: ApplianceLaunch, dataDir: string, port: number, logFd: number) {
  return spawn(process.execPath, [...launch.nodeArgs, launch.entry], {
    cwd: root,
    env: {
      ...launch.env,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      HTTPS_PORT: '0',
      HOST: '127.0.0.1',
      NEXUS_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // No engine: its event stream retries with back-off, as on a hub whose Docker is down.
      DOCKER_HOST: `unix://${path.join(dataDir, 'no-docker.sock')}`,
    },
    stdio: ['ignore', logFd, logFd],
  });
}

/**
 * The agent of the checkout at `root`, as a hub runs between restarts: a first start makes the data
 * directory (database, CA and HTTPS certificate) and is stopped; the second start is measured.
 */
async function agentRow(label: string, root: string): Promise<Row> {
  const launch = launchOf(root);
  const settings = [
    ...launch.nodeArgs,
    ...(launch.env.NODE_OPTIONS ? [`NODE_OPTIONS=${launch.env.NODE_OPTIONS}`] : []),
  ];
  const name = `${label}${settings.length > 0 ? ` (${settings.join(' ')})` : ''}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-idle-'));
  const port = await freePort();
  const logFd = fs.openSync(path.join(dataDir, 'agent.log'), 'a');
  let agent: ChildProcess | null = null;
  try {
    agent = startAgent(root, launch, dataDir, port, logFd);
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, agent);
    await stop(agent);
    agent = startAgent(root, launch, dataDir, port, logFd);
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, agent);
    await sleep(SETTLE_SECONDS * 1000);
    return await measure(name, agent.pid!);
  } catch (error) {
    return { name, note: (error as Error).message };
  } finally {
    if (agent) await stop(agent);
    fs.closeSync(logFd);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function netdataRow(): Promise<Row> {
  const missing = aptInstall(['netdata']);
  const bin = which('netdata');
  if (missing || !bin) return { name: 'netdata', note: missing ?? 'netdata not found' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-idle-netdata-'));
  for (const d of ['config', 'cache', 'lib', 'log', 'run']) fs.mkdirSync(path.join(dir, d));
  // No traffic beyond loopback: the cloud link and the anonymous statistics off.
  fs.writeFileSync(path.join(dir, 'config/.opt-out-from-anonymous-statistics'), '');
  fs.writeFileSync(path.join(dir, 'config/cloud.conf'), '[global]\n  enabled = no\n');
  const port = await freePort();
  const set = (section: string, option: string, value: string) => ['-W', 'set', section, option, value];
  const child = spawn(
    bin,
    [
      '-D',
      '-u',
      'root',
      '-i',
      '127.0.0.1',
      '-p',
      String(port),
      ...set('directories', 'config', path.join(dir, 'config')),
      ...set('directories', 'cache', path.join(dir, 'cache')),
      ...set('directories', 'lib', path.join(dir, 'lib')),
      ...set('directories', 'log', path.join(dir, 'log')),
      ...set('directories', 'lock', path.join(dir, 'run')),
    ],
    { stdio: 'ignore', env: { ...process.env, DO_NOT_TRACK: '1' } },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/v1/info`, child);
    await sleep(SETTLE_SECONDS * 1000);
    return await measure('netdata (with its plugins)', child.pid!);
  } catch (error) {
    return { name: 'netdata', note: (error as Error).message };
  } finally {
    await stop(child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function glancesRow(): Promise<Row> {
  const missing = aptInstall(['glances', 'python3-bottle']);
  const bin = which('glances');
  if (missing || !bin) return { name: 'glances -w', note: missing ?? 'glances not found' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-idle-glances-'));
  const port = await freePort();
  const child = spawn(bin, ['-w', '--bind', '127.0.0.1', '--port', String(port), '--disable-check-update'], {
    stdio: 'ignore',
    // Its log and config under a directory of its own.
    env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir },
  });
  try {
    // Its API answers once the web server is up; nobody reads it during the window.
    await waitForHttp(`http://127.0.0.1:${port}/api/3/pluginslist`, child);
    await sleep(SETTLE_SECONDS * 1000);
    return await measure('glances -w', child.pid!);
  } catch (error) {
    return { name: 'glances -w', note: (error as Error).message };
  } finally {
    await stop(child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!values['no-build'])
    execFileSync('npm', ['run', 'build', '-w', 'agent'], { cwd: repoRoot, stdio: 'inherit' });
  const load = [os.loadavg()];
  const rows: Row[] = [];
  if (values.base && values.together) {
    const base = path.resolve(values.base);
    rows.push(
      ...(await Promise.all([
        agentRow(`nexus agent, ${path.basename(base)}`, base),
        agentRow('nexus agent', repoRoot),
      ])),
    );
  } else {
    if (values.base) {
      const base = path.resolve(values.base);
      rows.push(await agentRow(`nexus agent, ${path.basename(base)}`, base));
      load.push(os.loadavg());
    }
    rows.push(await agentRow('nexus agent', repoRoot));
  }
  if (values.only !== 'agent') {
    load.push(os.loadavg());
    rows.push(await netdataRow());
    load.push(os.loadavg());
    rows.push(await glancesRow());
  }
  load.push(os.loadavg());
  say('');
  say(
    `idle, ${SECONDS} s each after ${SETTLE_SECONDS} s to settle (${new Date().toISOString()}, ${os.cpus().length} cores)`,
  );
  say('| process | CPU % of a core | RSS MB | PSS MB | processes |');
  say('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    if (r.note) say(`| ${r.name} | — | — | — | ${r.note} |`);
    else
      say(
        `| ${r.name} | ${r.cpu!.toFixed(2)} | ${(r.rss! / MB).toFixed(1)} | ${(r.pss! / MB).toFixed(1)} | ${r.processes} |`,
      );
  }
  say(`load average (1 min) at each start and at the end: ${load.map((l) => l[0]!.toFixed(2)).join(', ')}`);
  say(
    values.together
      ? 'The two agents ran at the same time; the other rows one after another, under whatever load the shared machine had.'
      : 'The machine is shared: the rows ran one after another under whatever load it had.',
  );
}

await main();
