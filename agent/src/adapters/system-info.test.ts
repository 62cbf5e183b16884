import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  countsTowardTraffic,
  createSystemInfo,
  parseDefaultRoute,
  parseDiskStats,
  parseIwLink,
  parseMeminfo,
  parseMounts,
  parseNetDev,
  parseProcStat,
  parseProcWireless,
  parseResolvConf,
  pickCpuTemperature,
  readDisks,
} from './system-info.js';

describe('procfs parsers', () => {
  it('reads busy and total CPU time per core from /proc/stat', () => {
    const text = [
      'cpu  100 10 50 800 40 5 5 0 20 0',
      'cpu0 60 5 25 400 20 3 2 0 10 0',
      'cpu1 40 5 25 400 20 2 3 0 10 0',
      'intr 12345 0 0',
      'ctxt 99',
    ].join('\n');
    const t = parseProcStat(text)!;
    // busy = user+nice+system+irq+softirq+steal; iowait counts as idle; guest is inside user.
    expect(t.busy).toBe(170);
    expect(t.total).toBe(1010);
    expect(t.cores).toEqual([
      { busy: 95, total: 515 },
      { busy: 75, total: 495 },
    ]);
  });

  it('reads byte counters per interface from /proc/net/dev', () => {
    const text = [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:  123456     100    0    0    0     0          0         0   123456     100    0    0    0     0       0          0',
      '  eth0: 9876543   20000    0    3    0     0          0        12  1234567   15000    0    0    0     0       0          0',
    ].join('\n');
    expect(parseNetDev(text)).toEqual(
      new Map([
        ['lo', { rxBytes: 123456, txBytes: 123456 }],
        ['eth0', { rxBytes: 9876543, txBytes: 1234567 }],
      ]),
    );
  });

  it('sums whole-disk sectors from /proc/diskstats, skipping partitions and other devices', () => {
    const text = [
      ' 179       0 mmcblk0 1000 10 20000 500 2000 20 40000 900 0 1000 1400',
      ' 179       1 mmcblk0p1 900 10 18000 450 1900 20 38000 850 0 900 1300',
      ' 259       0 nvme0n1 10 0 8 1 20 0 16 2 0 3 3',
      '   7       0 loop0 5 0 10 0 0 0 0 0 0 0 0',
    ].join('\n');
    expect(parseDiskStats(text, new Set(['mmcblk0', 'nvme0n1']))).toEqual({
      readBytes: (20000 + 8) * 512,
      writeBytes: (40000 + 16) * 512,
    });
  });

  it('finds the default IPv4 route in /proc/net/route', () => {
    const text = [
      'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
      'eth0\t0002A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0',
      'eth0\t00000000\t0102A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0',
    ].join('\n');
    expect(parseDefaultRoute(text)).toEqual({ iface: 'eth0', gateway: '192.168.2.1' });
    expect(parseDefaultRoute(text.split('\n').slice(0, 2).join('\n'))).toBeNull();
  });

  it('reads nameservers and search domains from resolv.conf', () => {
    const text =
      '# generated\nnameserver 192.168.1.1\nnameserver fd00::1 # v6\nsearch home.arpa lan\noptions edns0\n';
    expect(parseResolvConf(text)).toEqual({
      nameservers: ['192.168.1.1', 'fd00::1'],
      search: ['home.arpa', 'lan'],
    });
  });
});

describe('memory', () => {
  const KB = 1024;

  it('reads used memory as MemTotal - MemAvailable, and swap, from /proc/meminfo', () => {
    const meminfo = [
      'MemTotal:        7999344 kB',
      'MemFree:          512000 kB',
      'MemAvailable:    5000000 kB',
      'Buffers:           10000 kB',
      'Cached:          4000000 kB',
      'SwapTotal:       3999668 kB',
      'SwapFree:        3899668 kB',
      'HugePages_Total:       0',
      '',
    ].join('\n');
    expect(parseMeminfo(meminfo)).toEqual({
      total: 7999344 * KB,
      used: (7999344 - 5000000) * KB,
      swapTotal: 3999668 * KB,
      swapUsed: 100000 * KB,
    });
  });

  it('counts free, buffers, page cache and slab as available on a kernel without MemAvailable', () => {
    const meminfo = 'MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 200 kB\nSlab: 50 kB\n';
    expect(parseMeminfo(meminfo)).toEqual({ total: 1000 * KB, used: 600 * KB, swapTotal: 0, swapUsed: 0 });
  });

  it('gives up on a file without MemTotal, so the caller asks systeminformation', () => {
    expect(parseMeminfo('')).toBeNull();
    expect(parseMeminfo('MemFree: 100 kB\n')).toBeNull();
  });
});

describe('temperature sensors', () => {
  it('prefers the CPU sensor by its label, as Jetson, Intel and AMD name it', () => {
    expect(pickCpuTemperature({ 'GPU-therm': 40, 'CPU-therm': 45.5, 'SOC0-therm': 43 })).toBe(45.5);
    expect(pickCpuTemperature({ acpitz: 30, x86_pkg_temp: 52 })).toBe(52);
    expect(pickCpuTemperature({ 'k10temp Tctl': 61 })).toBe(61);
    expect(pickCpuTemperature({ 'nvme Composite': 35 })).toBeNull();
  });
});

describe('traffic', () => {
  it('leaves loopback and container plumbing out of the host’s rate', () => {
    expect(countsTowardTraffic('eth0')).toBe(true);
    expect(countsTowardTraffic('wlan0')).toBe(true);
    expect(countsTowardTraffic('wg0')).toBe(true);
    for (const name of ['lo', 'veth12ab', 'docker0', 'br-1234', 'podman0', 'cni0']) {
      expect(countsTowardTraffic(name)).toBe(false);
    }
  });
});

describe.runIf(fs.existsSync('/proc/stat'))('on this machine', () => {
  const info = createSystemInfo();

  it('reads CPU times that only grow', async () => {
    const a = info.readCpuTimes();
    await new Promise((r) => setTimeout(r, 50));
    const b = info.readCpuTimes();
    expect(a.cores.length).toBeGreaterThan(0);
    expect(b.total).toBeGreaterThanOrEqual(a.total);
    expect(b.busy).toBeGreaterThanOrEqual(a.busy);
  });

  it('reads memory as MemTotal - MemAvailable', async () => {
    const meminfo = fs.readFileSync('/proc/meminfo', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(meminfo)![1]) * 1024;
    const m = await info.readMemory();
    expect(m.total).toBe(kb('MemTotal'));
    // Memory moves between the two reads; a few percent of it is plenty of room.
    expect(Math.abs(m.used - (kb('MemTotal') - kb('MemAvailable')))).toBeLessThan(m.total * 0.05);
  });

  it('reads the loopback interface’s counters', () => {
    expect(info.readNetworkCounters().has('lo')).toBe(true);
  });
});

describe('Wi-Fi links', () => {
  it('reads /proc/net/wireless: quality of 70 as a percentage, the level in dBm', () => {
    const text =
      'Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE\n' +
      ' face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22\n' +
      ' wlan0: 0000   54.  -56.  -256        0      0      0      0      0        0\n' +
      '  wlp2s0: 0000   70.  200.  0        0      0      0      0      0        0\n';
    expect(parseProcWireless(text)).toEqual([
      { interface: 'wlan0', quality: 77, signalDbm: -56 },
      // An old driver's unsigned level: 200 - 256 dBm.
      { interface: 'wlp2s0', quality: 100, signalDbm: -56 },
    ]);
    expect(parseProcWireless('')).toEqual([]);
  });

  it('reads the SSID, signal and bitrate from `iw dev <if> link`', () => {
    const text =
      'Connected to 02:00:00:00:01:00 (on wlan0)\n\tSSID: Nexus Home\n\tfreq: 5180\n\tsignal: -61 dBm\n\ttx bitrate: 390.0 MBit/s VHT-MCS 8\n';
    expect(parseIwLink(text)).toEqual({
      ssid: 'Nexus Home',
      signalDbm: -61,
      txBitrate: 390,
      frequencyMhz: 5180,
    });
    expect(parseIwLink('Not connected.\n')).toEqual({
      ssid: null,
      signalDbm: null,
      txBitrate: null,
      frequencyMhz: null,
    });
  });
});

describe('disks', () => {
  it('parses /proc/self/mounts, with the kernel’s octal escapes in paths', () => {
    const text = [
      '/dev/nvme0n1p1 / ext4 rw,relatime 0 0',
      'proc /proc proc rw,nosuid 0 0',
      '/dev/sda1 /media/My\\040Disk vfat rw 0 0',
      '',
    ].join('\n');
    expect(parseMounts(text)).toEqual([
      { fs: '/dev/nvme0n1p1', mount: '/', type: 'ext4' },
      { fs: 'proc', mount: '/proc', type: 'proc' },
      { fs: '/dev/sda1', mount: '/media/My Disk', type: 'vfat' },
    ]);
  });

  it('lists each filesystem once, under its shortest path, and leaves out network and memory ones', async () => {
    const here = process.cwd();
    const disks = await readDisks([
      // Never asked: statfs on an automount point mounts what is behind it. Listed first, it would
      // otherwise be taken for the disk at /.
      { fs: 'systemd-1', mount: '/', type: 'autofs' },
      { fs: '/dev/root', mount: here, type: 'ext4' },
      { fs: '/dev/root', mount: '/', type: 'ext4' },
      // Never asked: a gone NFS server would hold the statfs call.
      { fs: 'nas:/export', mount: '/', type: 'nfs4' },
      { fs: 'tmpfs', mount: '/dev/shm', type: 'tmpfs' },
      { fs: 'proc', mount: '/proc', type: 'proc' },
      { fs: '/dev/gone', mount: '/no/such/mount', type: 'ext4' },
    ]);
    const sameDevice = fs.statSync(here).dev === fs.statSync('/').dev;
    expect(disks.map((d) => d.mount)).toEqual(sameDevice ? ['/'] : [here, '/']);
    const root = disks.find((d) => d.mount === '/')!;
    const space = fs.statfsSync('/');
    expect(root).toMatchObject({ fs: '/dev/root', type: 'ext4', size: space.blocks * space.bsize });
    expect(root.used + root.available).toBeLessThanOrEqual(root.size);
    expect(root.usePercent).toBeGreaterThan(0);
    expect(root.usePercent).toBeLessThanOrEqual(100);
  });

  it.runIf(process.platform === 'linux')(
    'reads this machine’s disks with no pseudo filesystem among them',
    async () => {
      const disks = await createSystemInfo().disks();
      expect(disks.some((d) => d.mount === '/')).toBe(true);
      for (const d of disks) {
        expect(['proc', 'sysfs', 'cgroup', 'cgroup2', 'devpts', 'squashfs']).not.toContain(d.type);
        expect(d.size).toBeGreaterThan(0);
      }
      expect(new Set(disks.map((d) => d.mount)).size).toBe(disks.length);
    },
  );
});
