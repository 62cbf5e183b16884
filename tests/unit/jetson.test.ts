import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostFiles } from '../../agent/src/adapters/host-files.js';
import type { JetsonReport } from '../../agent/src/contract/jetson.js';
import { jetsonReportSchema } from '../../agent/src/contract/jetson.js';
import {
  dpkgInstalledVersion,
  parseNvpmodelConf,
  parseNvpmodelStatus,
} from '../../agent/src/features/jetson/jetson-facts.js';
import { createJetsonService } from '../../agent/src/features/jetson/jetson.service.js';
import {
  jetpackForL4t,
  normalizeL4tRelease,
  parseNvTegraRelease,
} from '../../agent/src/features/jetson/l4t-releases.js';
import { orinNanoJetPack61, plainPc, xavierNxJetPack512, type HostTree } from '../fixtures/jetson-hosts.js';

const trees: HostTree[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.remove();
});

function reportFor(make: () => HostTree): JetsonReport {
  const tree = make();
  trees.push(tree);
  const report = createJetsonService({ host: createHostFiles(tree.root), dataDir: tree.root }).report();
  // The answer is what the contract promises the console.
  return jetsonReportSchema.parse(report);
}

const check = (report: JetsonReport, id: string) => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}; have ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
};

describe('L4T releases and JetPack', () => {
  it('reads the release from the first line of /etc/nv_tegra_release', () => {
    expect(
      parseNvTegraRelease(
        '# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64, DATE: x\n',
      ),
    ).toEqual({ release: '36.4.0', raw: expect.stringContaining('R36 (release)') });
    expect(
      parseNvTegraRelease('# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t210ref')?.release,
    ).toBe('32.7.1');
    expect(parseNvTegraRelease('garbage')).toBeNull();
    expect(parseNvTegraRelease('')).toBeNull();
  });

  it('maps exact releases through the table', () => {
    expect(jetpackForL4t('36.4.0')).toEqual({ version: '6.1', match: 'exact' });
    expect(jetpackForL4t('36.3')).toEqual({ version: '6.0', match: 'exact' });
    expect(jetpackForL4t('36.4.3')).toEqual({ version: '6.2', match: 'exact' });
    expect(jetpackForL4t('35.4.1')).toEqual({ version: '5.1.2', match: 'exact' });
    expect(jetpackForL4t('R32.7.1')).toEqual({ version: '4.6.1', match: 'exact' });
  });

  it('falls back to the major release when the table lacks the exact one', () => {
    expect(jetpackForL4t('36.9.1')).toEqual({ version: '6.x', match: 'major' });
    expect(jetpackForL4t('35.7.0')).toEqual({ version: '5.x', match: 'major' });
    expect(jetpackForL4t('32.8.0')).toEqual({ version: '4.x', match: 'major' });
    expect(jetpackForL4t('12.1.0')).toBeNull();
    expect(normalizeL4tRelease('36')).toBeNull();
    expect(normalizeL4tRelease('36.x')).toBeNull();
  });

  it('parses nvpmodel files and dpkg status', () => {
    expect(
      parseNvpmodelConf(
        '< POWER_MODEL ID=0 NAME=15W >\n< POWER_MODEL ID=2 NAME=MAXN_SUPER >\n< PM_CONFIG DEFAULT=2 >',
      ),
    ).toEqual({
      modes: [
        { id: 0, name: '15W' },
        { id: 2, name: 'MAXN_SUPER' },
      ],
      defaultId: 2,
    });
    expect(parseNvpmodelStatus('pmode:0002 fmode:quiet\n')).toBe(2);
    expect(parseNvpmodelStatus('pmode:0000')).toBe(0);
    expect(parseNvpmodelStatus('')).toBeNull();
    const status =
      'Package: a\nStatus: deinstall ok config-files\nVersion: 1\n\nPackage: nvidia-jetpack\nStatus: install ok installed\nVersion: 6.1+b123\n';
    expect(dpkgInstalledVersion(status, 'nvidia-jetpack')).toBe('6.1+b123');
    expect(dpkgInstalledVersion(status, 'a')).toBeNull();
  });
});

describe('host files', () => {
  it('resolves absolute symlinks inside the host root and never above it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'host-files-'));
    trees.push({ root, remove: () => fs.rmSync(root, { recursive: true, force: true }) });
    fs.mkdirSync(path.join(root, 'etc/real'), { recursive: true });
    fs.writeFileSync(path.join(root, 'etc/real/file'), 'inside\n');
    fs.symlinkSync('/etc/real/file', path.join(root, 'etc/abs-link'));
    fs.symlinkSync('../../../../../../etc/real/file', path.join(root, 'etc/climbing-link'));
    fs.symlinkSync('/etc/loop-b', path.join(root, 'etc/loop-a'));
    fs.symlinkSync('/etc/loop-a', path.join(root, 'etc/loop-b'));
    const host = createHostFiles(root);
    expect(host.readText('etc/abs-link')).toBe('inside\n');
    expect(host.readText('/etc/climbing-link')).toBe('inside\n');
    expect(host.readText('../../etc/passwd')).toBeNull();
    expect(host.resolve('etc/loop-a')).toBeNull();
    expect(host.readText('etc/loop-a')).toBeNull();
    expect(host.list('etc')).toEqual(['abs-link', 'climbing-link', 'loop-a', 'loop-b', 'real']);
    expect(host.list('no/such/dir')).toEqual([]);
  });
});

describe('the Jetson check on an Orin Nano with JetPack 6.1', () => {
  it('reads the board, releases, CUDA, power mode, clocks, thermal zones, rails and runtime', () => {
    const r = reportFor(orinNanoJetPack61);
    expect(r.isJetson).toBe(true);
    expect(r.board).toEqual({
      model: 'NVIDIA Jetson Orin Nano Developer Kit',
      soc: 'tegra234',
      family: 'Orin',
    });
    expect(r.l4t).toMatchObject({ release: '36.4.0', source: 'nv_tegra_release' });
    expect(r.jetpack).toEqual({ version: '6.1', match: 'package' });
    expect(r.cuda).toEqual({ version: '12.6.68', source: 'version.json' });
    expect(r.powerMode).toEqual({
      current: { id: 0, name: '15W' },
      defaultId: 2,
      modes: [
        { id: 0, name: '15W' },
        { id: 1, name: '25W' },
        { id: 2, name: 'MAXN_SUPER' },
        { id: 3, name: '7W' },
      ],
    });
    expect(r.clocks.cpus).toHaveLength(6);
    expect(r.clocks.cpus[0]).toEqual({
      cpu: 0,
      online: true,
      curMHz: 730,
      minMHz: 115,
      maxMHz: 1510,
      governor: 'schedutil',
    });
    expect(r.clocks.gpu).toEqual({ name: '17000000.gpu', curMHz: 306, minMHz: 306, maxMHz: 1020 });
    expect(r.thermal.map((z) => [z.type, z.tempC])).toEqual([
      ['cpu-thermal', 48.5],
      ['gpu-thermal', 47.2],
      ['soc0-thermal', 46.9],
      ['tj-thermal', 48.9],
    ]);
    expect(r.thermal[0]).toMatchObject({ throttleC: 99, criticalC: 103, measured: true });
    // An "active" (fan) trip point is not a throttling point.
    expect(r.thermal[3]).toMatchObject({ throttleC: null, criticalC: 104.5 });
    expect(r.powerRails).toEqual([
      { name: 'VDD_IN', voltageV: 5.07, currentA: 1.03, powerW: 5.23 },
      { name: 'VDD_CPU_GPU_CV', voltageV: 5.06, currentA: 0.23, powerW: 1.17 },
      { name: 'VDD_SOC', voltageV: 5.06, currentA: 0.42, powerW: 2.15 },
    ]);
    expect(r.containerRuntime).toEqual({
      nvidiaRuntimeBinary: '/usr/bin/nvidia-container-runtime',
      dockerRuntimes: ['nvidia'],
      defaultRuntime: null,
      cdiSpec: null,
    });
    expect(r.memory).toEqual({
      totalBytes: 7802128 * 1024,
      availableBytes: 5120000 * 1024,
      swapTotalBytes: 3901056 * 1024,
      swapFreeBytes: 3901056 * 1024,
    });
  });

  it('passes every hardware check, and says how to get the most speed', () => {
    const r = reportFor(orinNanoJetPack61);
    for (const id of [
      'board',
      'jetpack',
      'cuda',
      'power-mode',
      'cpu-clocks',
      'gpu-clock',
      'thermal',
      'power-rails',
      'container-runtime',
      'memory',
      'swap',
    ]) {
      expect(check(r, id), id).toMatchObject({ status: 'pass', fix: null });
    }
    expect(check(r, 'jetpack').detail).toBe('Jetson Linux R36.4.0, JetPack 6.1.');
    expect(check(r, 'power-mode').detail).toContain('sudo nvpmodel -m 2 (MAXN_SUPER)');
    expect(check(r, 'power-rails').detail).toContain('VDD_IN draws 5.2 W');
    expect(r.disks.map((d) => d.label)).toEqual(['Host root', 'Data directory']);
    expect(r.summary.pass + r.summary.warn + r.summary.fail).toBe(r.checks.length);
  });

  it('derives JetPack from the table when the nvidia-jetpack package is absent', () => {
    const tree = orinNanoJetPack61();
    trees.push(tree);
    fs.writeFileSync(path.join(tree.root, 'var/lib/dpkg/status'), '');
    const r = createJetsonService({ host: createHostFiles(tree.root), dataDir: tree.root }).report();
    expect(r.jetpack).toEqual({ version: '6.1', match: 'exact' });
  });

  it('warns with the fix when the NVIDIA runtime is not registered, and fails when it is missing', () => {
    const tree = orinNanoJetPack61();
    trees.push(tree);
    fs.writeFileSync(path.join(tree.root, 'etc/docker/daemon.json'), '{}');
    const host = createHostFiles(tree.root);
    const unregistered = check(
      createJetsonService({ host, dataDir: tree.root }).report(),
      'container-runtime',
    );
    expect(unregistered.status).toBe('warn');
    expect(unregistered.fix).toContain('nvidia-ctk runtime configure --runtime=docker');
    fs.rmSync(path.join(tree.root, 'usr/bin/nvidia-container-runtime'));
    const missing = check(createJetsonService({ host, dataDir: tree.root }).report(), 'container-runtime');
    expect(missing.status).toBe('fail');
    expect(missing.fix).toContain('apt install nvidia-container-toolkit');
  });

  it('falls back by major release for a release newer than the table', () => {
    const tree = orinNanoJetPack61();
    trees.push(tree);
    fs.writeFileSync(path.join(tree.root, 'var/lib/dpkg/status'), '');
    fs.writeFileSync(
      path.join(tree.root, 'etc/nv_tegra_release'),
      '# R36 (release), REVISION: 9.2, GCID: 1, BOARD: generic\n',
    );
    const r = createJetsonService({ host: createHostFiles(tree.root), dataDir: tree.root }).report();
    expect(r.jetpack).toEqual({ version: '6.x', match: 'major' });
    expect(check(r, 'jetpack')).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('apt-cache show nvidia-jetpack'),
    });
  });
});

describe('the Jetson check on a Xavier NX with JetPack 5', () => {
  it('derives JetPack 5.1.2 from R35.4.1 and reads the hardware', () => {
    const r = reportFor(xavierNxJetPack512);
    expect(r.isJetson).toBe(true);
    expect(r.board).toEqual({
      model: 'NVIDIA Jetson Xavier NX Developer Kit',
      soc: 'tegra194',
      family: 'Xavier',
    });
    expect(r.l4t?.release).toBe('35.4.1');
    expect(r.jetpack).toEqual({ version: '5.1.2', match: 'exact' });
    expect(r.cuda?.version).toBe('11.4.19');
    expect(r.powerMode?.current).toEqual({ id: 3, name: 'MODE_10W_2CORE' });
    expect(r.clocks.gpu?.name).toBe('17000000.gv11b');
    expect(r.clocks.cpus.filter((c) => c.online).map((c) => c.cpu)).toEqual([0, 1]);
    expect(r.thermal.find((z) => z.type === 'PMIC-Die')).toMatchObject({ tempC: 100, measured: false });
    expect(r.powerRails.map((p) => p.name)).toEqual(['VDD_IN', 'VDD_CPU_GPU_CV', 'VDD_SOC']);
  });

  it('flags what a technician should fix, each with a fix', () => {
    const r = reportFor(xavierNxJetPack512);
    expect(check(r, 'jetpack')).toMatchObject({ status: 'warn', fix: expect.stringContaining('r35') });
    // CUDA 11.4 is JetPack 5's own.
    expect(check(r, 'cuda').status).toBe('pass');
    expect(check(r, 'cpu-clocks')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('2 of 6 cores online'),
      fix: expect.stringContaining('nvpmodel -m'),
    });
    // 93.5 °C is within 5 °C of the 96 °C throttle point; PMIC-Die's fixed 100 °C does not count.
    expect(check(r, 'thermal')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('CPU-therm at 93.5 °C'),
    });
    expect(check(r, 'container-runtime').status).toBe('warn');
    expect(check(r, 'memory')).toMatchObject({ status: 'warn', detail: expect.stringContaining('(12 %)') });
    for (const c of r.checks.filter((c) => c.status !== 'pass')) expect(c.fix, c.id).toBeTruthy();
  });
});

describe('the Jetson check on a machine that is not a Jetson', () => {
  it('says so and still runs the general checks', () => {
    const r = reportFor(plainPc);
    expect(r.isJetson).toBe(false);
    expect(r.board).toEqual({ model: null, soc: null, family: null });
    expect(r.l4t).toBeNull();
    expect(r.jetpack).toBeNull();
    expect(check(r, 'board')).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('NEXUS_HOST_ROOT=/host'),
    });
    const ids = r.checks.map((c) => c.id);
    for (const jetsonOnly of ['jetpack', 'cuda', 'power-mode', 'gpu-clock', 'container-runtime']) {
      expect(ids).not.toContain(jetsonOnly);
    }
    expect(check(r, 'cpu-clocks')).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('4 of 4 cores online'),
    });
    expect(check(r, 'thermal')).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('x86_pkg_temp at 45 °C'),
    });
    expect(check(r, 'memory').status).toBe('pass');
    expect(check(r, 'swap')).toMatchObject({ status: 'warn', fix: expect.stringContaining('mkswap') });
    expect(ids).toContain('disk-host-root');
  });
});
