import { HardDrive } from 'lucide-react';
import type { Disk } from '@nexus/agent/contract';
import { Progress } from '@/components/ui/progress';
import { formatBytes } from '@/lib/format-bytes';
import { cn } from '@/lib/utils';
import { Panel } from './panel';

/** Above these a disk's bar turns amber, then red: a full root disk stops the hub writing its database. */
const DISK_WARNING_PERCENT = 80;
const DISK_CRITICAL_PERCENT = 95;

export function DisksCard({ disks, sampledAt }: { disks: Disk[]; sampledAt: number | null }) {
  return (
    <Panel
      title="Disks"
      icon={HardDrive}
      description={sampledAt ? `Read at ${new Date(sampledAt).toLocaleTimeString()}` : 'Not read yet'}
    >
      {disks.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No mounted file systems were reported. The agent reads them every 30 seconds; check back shortly.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="pb-2 font-medium">
                  Mount
                </th>
                <th scope="col" className="pb-2 font-medium">
                  Device
                </th>
                <th scope="col" className="pb-2 text-right font-medium">
                  Size
                </th>
                <th scope="col" className="pb-2 text-right font-medium">
                  Free
                </th>
                <th scope="col" className="w-2/5 pb-2 pl-4 font-medium">
                  Used
                </th>
              </tr>
            </thead>
            <tbody>
              {disks.map((disk) => (
                <tr key={`${disk.fs}:${disk.mount}`} className="border-t">
                  <th scope="row" className="py-2 pr-3 text-left font-medium">
                    {disk.mount}
                  </th>
                  <td className="py-2 pr-3 text-muted-foreground">
                    <span className="block max-w-48 truncate" title={disk.fs}>
                      {disk.fs}
                    </span>
                    <span className="text-xs">{disk.type}</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatBytes(disk.size)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatBytes(disk.available)}</td>
                  <td className="py-2 pl-4">
                    <div className="flex items-center gap-2">
                      <Progress
                        value={disk.usePercent}
                        aria-label={`${disk.mount} ${Math.round(disk.usePercent)}% used`}
                        indicatorClassName={cn(
                          disk.usePercent >= DISK_CRITICAL_PERCENT
                            ? 'bg-destructive'
                            : disk.usePercent >= DISK_WARNING_PERCENT && 'bg-warning',
                        )}
                      />
                      <span className="w-10 text-right tabular-nums">{Math.round(disk.usePercent)}%</span>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
