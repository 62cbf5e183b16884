import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ListTree } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatBytes } from '@/lib/format-bytes';
import { PROCESS_LIMIT, processesQueryOptions, type ProcessSort } from '@/data/diagnostics';
import { Panel } from './panel';
import { QueryError, RowsSkeleton } from './query-state';

const SORT_LABELS: Record<ProcessSort, string> = { cpu: 'CPU', mem: 'Memory' };

export function ProcessesCard() {
  const [sort, setSort] = useState<ProcessSort>('cpu');
  const query = useQuery(processesQueryOptions(sort));
  const list = query.data;
  return (
    <Panel
      title="Top processes"
      icon={ListTree}
      className="lg:col-span-2"
      description={
        list
          ? `${list.total} processes: ${list.running} running, ${list.sleeping} sleeping, ${list.blocked} blocked`
          : `The ${PROCESS_LIMIT} busiest, refreshed every 10 seconds`
      }
      actions={
        <div role="group" aria-label="Sort processes by" className="flex gap-1 rounded-lg bg-muted p-1">
          {(Object.keys(SORT_LABELS) as ProcessSort[]).map((key) => (
            <Button
              key={key}
              size="sm"
              variant={sort === key ? 'outline' : 'ghost'}
              aria-pressed={sort === key}
              className="h-7"
              onClick={() => setSort(key)}
            >
              {SORT_LABELS[key]}
            </Button>
          ))}
        </div>
      }
    >
      {list ? (
        <Table label="Processes table">
          <TableHeader>
            <TableRow>
              <TableHead>Process</TableHead>
              <TableHead className="text-right">PID</TableHead>
              <TableHead>User</TableHead>
              <TableHead className="text-right" aria-sort={sort === 'cpu' ? 'descending' : undefined}>
                CPU
              </TableHead>
              <TableHead className="text-right" aria-sort={sort === 'mem' ? 'descending' : undefined}>
                Memory
              </TableHead>
              <TableHead className="text-right">Resident</TableHead>
              <TableHead>State</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.processes.map((p) => (
              <TableRow key={p.pid}>
                <TableCell className="max-w-64 font-medium">
                  <span className="block truncate" title={p.command || p.name}>
                    {p.name}
                  </span>
                </TableCell>
                <TableCell className="text-right text-muted-foreground tabular-nums">{p.pid}</TableCell>
                <TableCell className="text-muted-foreground">{p.user}</TableCell>
                <TableCell className="text-right tabular-nums">{p.cpu.toFixed(1)}%</TableCell>
                <TableCell className="text-right tabular-nums">{p.mem.toFixed(1)}%</TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(p.rss)}</TableCell>
                <TableCell className="text-muted-foreground">{p.state}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : query.error ? (
        <QueryError
          what="the process list"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <RowsSkeleton rows={6} />
      )}
    </Panel>
  );
}
