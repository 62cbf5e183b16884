import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ListTree } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/format-bytes';
import { PROCESS_LIMIT, processesQueryOptions, type ProcessSort } from '../api';
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
          : `The ${PROCESS_LIMIT} busiest, refreshed every 5 seconds`
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
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="pb-2 font-medium">
                  Process
                </th>
                <th scope="col" className="pb-2 text-right font-medium">
                  PID
                </th>
                <th scope="col" className="pb-2 font-medium">
                  User
                </th>
                <th
                  scope="col"
                  className="pb-2 text-right font-medium"
                  aria-sort={sort === 'cpu' ? 'descending' : undefined}
                >
                  CPU
                </th>
                <th
                  scope="col"
                  className="pb-2 text-right font-medium"
                  aria-sort={sort === 'mem' ? 'descending' : undefined}
                >
                  Memory
                </th>
                <th scope="col" className="pb-2 text-right font-medium">
                  Resident
                </th>
                <th scope="col" className="pb-2 pl-3 font-medium">
                  State
                </th>
              </tr>
            </thead>
            <tbody>
              {list.processes.map((p) => (
                <tr key={p.pid} className="border-t">
                  <th scope="row" className="max-w-64 py-1.5 pr-3 text-left font-medium">
                    <span className="block truncate" title={p.command || p.name}>
                      {p.name}
                    </span>
                  </th>
                  <td className="py-1.5 pr-3 text-right text-muted-foreground tabular-nums">{p.pid}</td>
                  <td className="py-1.5 pr-3 text-muted-foreground">{p.user}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{p.cpu.toFixed(1)}%</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{p.mem.toFixed(1)}%</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{formatBytes(p.rss)}</td>
                  <td className="py-1.5 pl-3 text-muted-foreground">{p.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
