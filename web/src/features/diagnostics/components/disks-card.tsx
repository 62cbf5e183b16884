import { HardDrive } from 'lucide-react';
import type { Disk } from '@nexus/agent/contract';
import { Progress } from '@/components/ui/progress';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
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
      className="lg:col-span-2"
      description={sampledAt ? `Read at ${new Date(sampledAt).toLocaleTimeString()}` : 'Not read yet'}
    >
      {disks.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No mounted file systems were reported. The agent reads them every 30 seconds; check back shortly.
        </p>
      ) : (
        <Table label="Disks table">
          <TableHeader>
            <TableRow>
              <TableHead>Mount</TableHead>
              <TableHead>Device</TableHead>
              <TableHead className="text-right">Size</TableHead>
              <TableHead className="text-right">Free</TableHead>
              <TableHead className="w-2/5 pl-4">Used</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {disks.map((disk) => (
              <TableRow key={`${disk.fs}:${disk.mount}`}>
                <TableCell className="font-medium">{disk.mount}</TableCell>
                <TableCell className="text-muted-foreground">
                  <span className="block max-w-48 truncate" title={disk.fs}>
                    {disk.fs}
                  </span>
                  <span className="text-xs">{disk.type}</span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(disk.size)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(disk.available)}</TableCell>
                <TableCell className="pl-4">
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
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Panel>
  );
}
