import { Server } from 'lucide-react';
import type { SystemInfo } from '@nexus/agent/contract';
import { formatBytes } from '@/lib/format-bytes';
import { formatDuration } from '@/lib/format-duration';
import { Fact, Facts, Panel } from './panel';

export function HostCard({ info }: { info: SystemInfo }) {
  const { os, hardware, cpu } = info;
  return (
    <Panel title="Host" icon={Server} description={info.hostname}>
      <Facts>
        <Fact label="Operating system">
          {[os.distro, os.release, os.codename && `(${os.codename})`].filter(Boolean).join(' ')}
        </Fact>
        <Fact label="Kernel">
          {os.kernel} · {os.arch}
        </Fact>
        <Fact label="Hardware">
          {[hardware.manufacturer, hardware.model].filter(Boolean).join(' ') || 'Unknown'}
          {hardware.virtual ? ' (virtual machine)' : ''}
        </Fact>
        <Fact label="Processor">
          {cpu.brand || cpu.manufacturer} · {cpu.cores} threads, {cpu.physicalCores} cores
          {cpu.speedMax ? ` · ${cpu.speedMax.toFixed(2)} GHz` : ''}
        </Fact>
        <Fact label="Memory">{formatBytes(info.memTotal)}</Fact>
        <Fact label="Jetson">{info.jetson ? info.jetson.release : 'Not a Jetson'}</Fact>
        <Fact label="Uptime">{formatDuration(info.uptime)}</Fact>
        <Fact label="Booted">
          <time dateTime={info.bootTime}>{new Date(info.bootTime).toLocaleString()}</time>
        </Fact>
      </Facts>
    </Panel>
  );
}
