import { Download, RefreshCw } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/features/auth';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import { NEXUS_PATHS, useHubDebug } from '@/data/nexus-management';
import { AdminOnly } from './admin-only';

function Row({ label, value }: { label: string; value: string }) {
  return (
    <TableRow>
      <TableCell className="text-muted-foreground">{label}</TableCell>
      <TableCell className="font-mono text-xs break-all whitespace-normal">{value}</TableCell>
    </TableRow>
  );
}

/** /nexus-debug: the agent's process, configuration (secrets only as set or not set) and database. */
export function DebugPanel() {
  const { isAdmin } = useAuth();
  const debug = useHubDebug(isAdmin);
  if (!isAdmin) return <AdminOnly what="Debugging" />;
  if (debug.error && !debug.data) {
    return (
      <Alert variant="destructive">
        <AlertTitle>The debug facts could not be read</AlertTitle>
        <AlertDescription>{errorMessage(debug.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!debug.data) return <Skeleton className="h-96 w-full" />;
  const { agent, config, database } = debug.data;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void debug.refetch()} disabled={debug.isFetching}>
          <RefreshCw aria-hidden="true" className={debug.isFetching ? 'animate-spin' : undefined} /> Refresh
        </Button>
        <Button asChild variant="outline">
          <a href={NEXUS_PATHS.bundle} download>
            <Download aria-hidden="true" /> Download the diagnostics bundle
          </a>
        </Button>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle role="heading" aria-level={2} className="text-lg">
              Agent process
            </CardTitle>
          </CardHeader>
          <CardContent>
            <Table label="Agent process table">
              <TableBody>
                <Row label="Version" value={agent.version} />
                <Row label="Process id" value={String(agent.pid)} />
                <Row label="Node.js" value={agent.nodeVersion} />
                <Row label="Started" value={new Date(agent.startedAt).toLocaleString()} />
                <Row label="Resident memory" value={formatBytes(agent.rssBytes)} />
                <Row label="JavaScript heap" value={formatBytes(agent.heapUsedBytes)} />
                <Row label="Data directory" value={agent.dataDir} />
                <Row label="Host root" value={agent.hostRoot} />
              </TableBody>
            </Table>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle role="heading" aria-level={2} className="text-lg">
              Database
            </CardTitle>
          </CardHeader>
          <CardContent>
            <Table label="Database table">
              <TableBody>
                <Row label="File" value={database.file} />
                <Row label="Size" value={formatBytes(database.sizeBytes)} />
                <Row label="Write-ahead log" value={formatBytes(database.walBytes)} />
              </TableBody>
            </Table>
          </CardContent>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle role="heading" aria-level={2} className="text-lg">
              Configuration
            </CardTitle>
          </CardHeader>
          <CardContent>
            <Table label="Configuration table">
              <TableHeader>
                <TableRow>
                  <TableHead>Variable</TableHead>
                  <TableHead>Value</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {config.map((c) => (
                  <Row key={c.name} label={c.name} value={c.value} />
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
