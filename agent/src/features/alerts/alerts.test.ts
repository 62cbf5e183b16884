import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { createLogger } from '../../lib/logger.js';
import { createNotificationService } from '../notifications/notifications.service.js';
import { notificationIncidents, notifications } from '../notifications/notifications.table.js';
import { createSystemInfo } from '../../adapters/system-info.js';
import type { HaConnectionState } from '../../contract/home-assistant.js';
import { createContainerAlerts, type EngineEvent } from './container-alerts.js';
import { createDeliberateStops } from './deliberate-stops.js';
import { watchHomeAssistant } from './home-assistant-alerts.js';
import { createHostCheck } from './host-alerts.js';
import { createIncidentNotifier } from './incidents.js';
import { describeDevice } from './sign-in-alerts.js';
import { createSubscriptionCheck } from './subscription-alerts.js';
import { createFlowAlerts } from './flow-alerts.js';
import { createVpnCheck } from './vpn-alerts.js';
import type { VpnStatus } from '../../contract/status.js';
import type { UplinkSummary } from '../vpn/vpn.service.js';

let handle: DbHandle;
let dir: string;
let clock: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-alerts-'));
  handle = openDatabase(dir);
  clock = Date.UTC(2025, 0, 1);
  vi.useFakeTimers({
    now: clock,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const now = () => Date.now();
function notifier() {
  const log = createLogger('silent');
  const service = createNotificationService({ db: handle.db, log, now });
  return createIncidentNotifier({ db: handle.db, notify: service.notify, log, now });
}
const rows = () => handle.db.select().from(notifications).all();

describe('incidents', () => {
  it('notifies once while open, once more on clear, and stamps the incident key', () => {
    const incidents = notifier();
    for (let i = 0; i < 5; i++)
      incidents.open('x:1', { category: 'system', level: 'error', title: 'Broken' });
    expect(incidents.clear('x:1', { category: 'system', title: 'Fixed' })).toBe(true);
    expect(incidents.clear('x:1', { category: 'system', title: 'Fixed' })).toBe(false);
    const all = rows();
    expect(all.map((r) => [r.title, r.level, r.incidentKey])).toEqual([
      ['Broken', 'error', 'x:1'],
      ['Fixed', 'success', 'x:1'],
    ]);
  });

  it('a clear of something never open says nothing', () => {
    expect(notifier().clear('never', { category: 'system', title: 'Fixed' })).toBe(false);
    expect(rows()).toHaveLength(0);
  });

  it('survives a restart: a second notifier over the same database does not notify the open fault again', () => {
    notifier().open('x:2', { category: 'system', title: 'Broken' });
    expect(notifier().open('x:2', { category: 'system', title: 'Broken' })).toBe(false);
    expect(handle.db.select().from(notificationIncidents).all()).toHaveLength(1);
    expect(rows()).toHaveLength(1);
  });
});

const ev = (Action: string, name: string, attrs: Record<string, string> = {}): EngineEvent => ({
  Type: 'container',
  Action,
  Actor: { ID: `${name}-0123456789abcdef`, Attributes: { name, ...attrs } },
});

describe('container alerts', () => {
  it('a kill notifies once, and the recovery once after it has run stableMs', () => {
    const alerts = createContainerAlerts({ incidents: notifier(), timing: { stableMs: 1000 }, now });
    alerts.handle(ev('kill', 'web', { signal: '9' }));
    alerts.handle(ev('die', 'web', { exitCode: '137' }));
    alerts.handle(ev('die', 'web', { exitCode: '137' }));
    expect(rows().map((r) => r.title)).toEqual(['Container web was killed']);
    alerts.handle(ev('start', 'web'));
    vi.advanceTimersByTime(999);
    expect(rows()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(rows().map((r) => [r.title, r.level])).toEqual([
      ['Container web was killed', 'error'],
      ['Container web recovered', 'success'],
    ]);
  });

  it('a crash loop is one died incident and one restart-loop incident, not a storm', () => {
    const alerts = createContainerAlerts({ incidents: notifier(), timing: { stableMs: 1000 }, now });
    for (let i = 0; i < 20; i++) {
      alerts.handle(ev('die', 'api', { exitCode: '1' }));
      vi.advanceTimersByTime(200);
      alerts.handle(ev('start', 'api'));
      vi.advanceTimersByTime(200);
    }
    expect(rows().map((r) => r.title)).toEqual([
      'Container api stopped unexpectedly',
      'Container api keeps restarting',
    ]);
    vi.advanceTimersByTime(1000);
    expect(rows().filter((r) => r.level === 'success')).toHaveLength(2);
  });

  it('three dies outside the window are no loop', () => {
    const alerts = createContainerAlerts({ incidents: notifier(), timing: { stableMs: 10 }, now });
    for (let i = 0; i < 3; i++) {
      alerts.handle(ev('die', 'slow', { exitCode: '0' }));
      vi.advanceTimersByTime(3 * 60_000);
    }
    expect(rows()).toHaveLength(0);
  });

  it('a stop through the console is not a crash', () => {
    const deliberate = createDeliberateStops(now);
    const alerts = createContainerAlerts({
      incidents: notifier(),
      deliberate,
      timing: { stableMs: 10 },
      now,
    });
    deliberate.mark('db');
    alerts.handle(ev('kill', 'db', { signal: '15' }));
    alerts.handle(ev('die', 'db', { exitCode: '143' }));
    expect(rows()).toHaveLength(0);
    // The mark is used up: a crash after that is reported.
    alerts.handle(ev('die', 'db', { exitCode: '139' }));
    expect(rows()).toHaveLength(1);
  });

  it('unhealthy (Docker and Podman spellings) notifies once; healthy clears after stableMs', () => {
    const alerts = createContainerAlerts({ incidents: notifier(), timing: { stableMs: 100 }, now });
    alerts.handle(ev('health_status: unhealthy', 'ha'));
    alerts.handle(ev('health_status', 'ha', { health_status: 'unhealthy' }));
    alerts.handle(ev('health_status: healthy', 'ha'));
    alerts.handle(ev('health_status: unhealthy', 'ha'));
    vi.advanceTimersByTime(100);
    expect(rows().map((r) => r.title)).toEqual(['Container ha is unhealthy']);
    alerts.handle(ev('health_status', 'ha', { health_status: 'healthy' }));
    vi.advanceTimersByTime(100);
    expect(rows().map((r) => r.level)).toEqual(['warning', 'success']);
  });

  it('a loop whose die arrives after stableMs (Podman under load) is not "recovered": the engine says it is not running', async () => {
    // What the engine says of the container's current run, as its inspect would.
    let run: { running: boolean; startedAt: number } | null = null;
    const alerts = createContainerAlerts({
      incidents: notifier(),
      timing: { stableMs: 1000 },
      now,
      engine: { currentRun: () => Promise.resolve(run), log: createLogger('silent') },
    });
    const start = (name: string) => {
      run = { running: true, startedAt: now() };
      alerts.handle({ ...ev('start', name), timeNano: now() * 1e6 });
    };
    for (let i = 0; i < 10; i++) {
      start('flappy');
      vi.advanceTimersByTime(200);
      run = { running: false, startedAt: run!.startedAt }; // it exited after 0.2 s...
      await vi.advanceTimersByTimeAsync(1500); // ...but its die reaches the agent 1.7 s after its start
      alerts.handle(ev('die', 'flappy', { exitCode: '3' }));
    }
    // Restarted and died again between the start we timed and the check: timed anew, not cleared.
    start('flappy');
    run = { running: true, startedAt: now() + 600 };
    await vi.advanceTimersByTimeAsync(1000);
    expect(rows().map((r) => r.title)).toEqual([
      'Container flappy stopped unexpectedly',
      'Container flappy keeps restarting',
    ]);
    // It runs on: one "recovered" per incident, stableMs after the run it is in now began.
    await vi.advanceTimersByTimeAsync(1000);
    expect(
      rows()
        .filter((r) => r.level === 'success')
        .map((r) => r.title),
    ).toEqual(['Container flappy recovered', 'Container flappy recovered']);
  });

  it('a removed container closes its incidents without a word', () => {
    const incidents = notifier();
    const alerts = createContainerAlerts({ incidents, timing: { stableMs: 10 }, now });
    alerts.handle(ev('die', 'gone', { exitCode: '1' }));
    alerts.handle(ev('destroy', 'gone'));
    expect(incidents.openKeys('container:')).toEqual([]);
    expect(rows()).toHaveLength(1);
  });
});

describe('Home Assistant alerts', () => {
  function fakeConnection(initial: HaConnectionState) {
    const listeners: ((c: { kind: string }) => void)[] = [];
    const c = {
      state: initial,
      message: null as string | null,
      onChange: (l: (c: { kind: string }) => void) => void listeners.push(l),
      set(next: HaConnectionState) {
        c.state = next;
        for (const l of listeners) l({ kind: 'connection' });
      },
    };
    return c;
  }

  it('a short drop says nothing; over the grace period one notification, and one when back', () => {
    const connection = fakeConnection('connected');
    const stop = watchHomeAssistant({ connection, incidents: notifier(), graceMs: 60_000 });
    connection.set('reconnecting');
    vi.advanceTimersByTime(59_000);
    connection.set('connected');
    vi.advanceTimersByTime(120_000);
    expect(rows()).toHaveLength(0);
    connection.set('reconnecting');
    connection.set('disconnected');
    vi.advanceTimersByTime(60_000);
    connection.set('reconnecting');
    vi.advanceTimersByTime(600_000);
    expect(rows().map((r) => [r.title, r.category, r.link])).toEqual([
      ['Home Assistant is disconnected', 'home-assistant', '/ha-connection-setup'],
    ]);
    connection.set('connected');
    connection.set('connected');
    expect(rows().map((r) => r.level)).toEqual(['error', 'success']);
    stop();
  });

  it('a hub without Home Assistant is never told it is missing', () => {
    const connection = fakeConnection('not_configured');
    watchHomeAssistant({ connection, incidents: notifier(), graceMs: 10 });
    vi.advanceTimersByTime(1000);
    expect(rows()).toHaveLength(0);
  });
});

describe('host alerts', () => {
  function hostRoot(files: Record<string, string>) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-host-'));
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    return root;
  }
  const meminfo = (totalKb: number, availKb: number) =>
    `MemTotal:       ${totalKb} kB\nMemFree:        1000 kB\nMemAvailable:   ${availKb} kB\n`;
  const zone = 'sys/class/thermal/thermal_zone0';

  it('thermal: over the passive trip notifies once, clears 5 °C under it (hysteresis); an active trip is a fan, not a fault', () => {
    const root = hostRoot({
      [`${zone}/type`]: 'CPU-therm\n',
      [`${zone}/temp`]: '97000\n',
      [`${zone}/trip_point_0_type`]: 'active\n',
      [`${zone}/trip_point_0_temp`]: '50000\n',
      [`${zone}/trip_point_1_type`]: 'passive\n',
      [`${zone}/trip_point_1_temp`]: '96000\n',
      'proc/meminfo': meminfo(8_000_000, 4_000_000),
    });
    const info = createSystemInfo({ hostRoot: root });
    const check = createHostCheck({
      incidents: notifier(),
      diskPaths: [],
      thermal: () => info.readThermalTrips!(),
      memory: () => info.readMemoryPressure!(),
    });
    check();
    check();
    fs.writeFileSync(path.join(root, zone, 'temp'), '93000\n');
    check();
    expect(rows().map((r) => r.title)).toEqual(['CPU-therm is too hot']);
    fs.writeFileSync(path.join(root, zone, 'temp'), '90000\n');
    check();
    expect(rows().map((r) => [r.title, r.level])).toEqual([
      ['CPU-therm is too hot', 'warning'],
      ['CPU-therm has cooled down', 'success'],
    ]);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('memory: MemAvailable under 5 % or PSI stalls notify once; clears only above 10 %', () => {
    const root = hostRoot({
      'proc/meminfo': meminfo(8_000_000, 300_000),
      'proc/pressure/memory':
        'some avg10=2.00 avg60=1.00 avg300=0.50 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n',
    });
    const info = createSystemInfo({ hostRoot: root });
    const check = createHostCheck({
      incidents: notifier(),
      diskPaths: [],
      memory: () => info.readMemoryPressure!(),
    });
    check();
    fs.writeFileSync(path.join(root, 'proc/meminfo'), meminfo(8_000_000, 600_000));
    check();
    expect(rows()).toHaveLength(1);
    fs.writeFileSync(path.join(root, 'proc/meminfo'), meminfo(8_000_000, 2_000_000));
    check();
    fs.writeFileSync(
      path.join(root, 'proc/pressure/memory'),
      'some avg10=55.00 avg60=1.00 avg300=0.50 total=100\nfull avg10=9.00 avg60=0.00 avg300=0.00 total=0\n',
    );
    check();
    expect(rows().map((r) => r.level)).toEqual(['warning', 'success', 'warning']);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('disk: over 90 % notifies once, clears under 85 %', () => {
    let used = 95;
    const check = createHostCheck({ incidents: notifier(), diskPaths: [dir, dir], diskUse: () => used });
    check();
    used = 88;
    check();
    expect(rows().map((r) => r.title)).toEqual(['The disk is almost full']);
    used = 80;
    check();
    expect(rows()).toHaveLength(2);
  });
});

describe('other sources', () => {
  it('subscription: once per period, within 7 days of its end', () => {
    const incidents = notifier();
    let endsAt = Date.now() + 10 * 86_400_000;
    const check = createSubscriptionCheck({ period: () => ({ kind: 'trial', endsAt }), incidents, now });
    check();
    vi.setSystemTime(Date.now() + 4 * 86_400_000);
    check();
    check();
    expect(rows().map((r) => [r.title, r.link])).toEqual([['Your trial ends in 6 days', '/billing']]);
    endsAt += 365 * 86_400_000;
    check();
    vi.setSystemTime(endsAt - 86_400_000);
    check();
    check();
    // (The first one is past the notifications' 90-day retention by now.)
    expect(rows().map((r) => [r.id, r.title])).toEqual([[2, 'Your trial ends in 1 day']]);
  });

  it('flows: a failing flow notifies its owner once; the next good run clears it', () => {
    const log = createLogger('silent');
    const service = createNotificationService({ db: handle.db, log, now });
    const onRunEnded = createFlowAlerts({
      incidents: createIncidentNotifier({ db: handle.db, notify: service.notify, log, now }),
    });
    const run = { flowId: 3, flowName: 'Lights', ownerId: null, error: 'Boom' };
    onRunEnded({ ...run, runId: 1, status: 'failed' });
    onRunEnded({ ...run, runId: 2, status: 'failed' });
    onRunEnded({ ...run, runId: 3, status: 'succeeded' });
    onRunEnded({ ...run, runId: 4, status: 'succeeded' });
    expect(rows().map((r) => [r.title, r.category])).toEqual([
      ['Flow Lights failed', 'flows'],
      ['Flow Lights runs again', 'flows'],
    ]);
  });

  it('VPN: the uplink monitor switching to the backup is one failover, and switching back one clear', async () => {
    const incidents = notifier();
    let active: UplinkSummary['active'] = 'primary';
    // Both uplinks are WireGuard: the providers in the status are the same before and after.
    const status = async () =>
      ({
        status: 'connected',
        provider: 'wireguard',
        latency: 20,
        failover: { activeProvider: 'wireguard', backupProvider: 'wireguard' },
      }) as VpnStatus;
    const check = createVpnCheck({
      status,
      uplinks: () => ({ configured: true, active, healthy: true, latencyMs: 20, backupConfigured: true }),
      incidents,
    });
    await check();
    active = 'backup';
    await check();
    await check();
    active = 'primary';
    await check();
    expect(rows().map((r) => [r.title, r.category])).toEqual([
      ['The VPN failed over', 'vpn'],
      ['The VPN is back on the primary uplink', 'vpn'],
    ]);
  });

  it('VPN: without uplinks, the provider in use differing from the chosen one is the failover', async () => {
    const incidents = notifier();
    let provider: VpnStatus['provider'] = 'tailscale';
    const check = createVpnCheck({
      status: async () =>
        ({
          status: 'connected',
          provider,
          latency: 30,
          failover: { activeProvider: 'wireguard', backupProvider: 'tailscale' },
        }) as VpnStatus,
      incidents,
    });
    await check();
    provider = 'wireguard';
    await check();
    expect(rows().map((r) => r.title)).toEqual(['The VPN failed over', 'The VPN is back on wireguard']);
  });

  it('a device is the browser family, the system and the network, not the browser version', () => {
    const chrome = (v: string) =>
      `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v} Safari/537.36`;
    expect(describeDevice(chrome('120.0'), '192.168.1.20')).toEqual(
      describeDevice(chrome('121.0'), '192.168.1.77'),
    );
    expect(describeDevice(chrome('120.0'), '::ffff:10.0.0.5')).toMatchObject({
      browser: 'Chrome',
      os: 'Linux',
      network: '10.0.0.0/24',
    });
    expect(describeDevice(undefined, '2001:db8:1:2:3::4').network).toBe('2001:db8:1:2::/64');
  });
});
