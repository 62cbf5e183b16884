import { useId, useState, type ReactNode } from 'react';
import { Cpu, RefreshCw, Thermometer, Zap } from 'lucide-react';
import type { JetsonReport } from '@nexus/agent/contract';
import { CheckList, CheckSummaryBadges } from '@/components/check-list';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/features/auth';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import { useJetsonReport } from '@/data/nexus-management';
import { AdminOnly } from './admin-only';

function Panel({
  title,
  icon: Icon,
  description,
  children,
}: {
  title: string;
  icon: typeof Cpu;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2} className="flex items-center gap-2 text-lg">
          <Icon aria-hidden="true" className="size-5 text-primary" />
          {title}
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-3">{children}</CardContent>
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words">{value}</dd>
    </div>
  );
}

/** A temperature against its throttling (or, lacking one, critical) point. */
function ThermalBar({ zone }: { zone: JetsonReport['thermal'][number] }) {
  const limit = zone.throttleC ?? zone.criticalC ?? 100;
  const hot = zone.tempC !== null && zone.tempC >= limit - 5;
  const warm = zone.tempC !== null && zone.tempC >= limit - 15;
  return (
    <div className="grid gap-1">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{zone.type}</span>
        <span className="tabular-nums">
          {zone.tempC === null ? 'unreadable' : `${zone.tempC.toFixed(1)} °C`}
          {!zone.measured ? (
            <span className="text-muted-foreground"> (fixed value, not measured)</span>
          ) : null}
        </span>
      </div>
      <Progress
        value={zone.tempC ?? 0}
        max={limit}
        aria-label={`${zone.type}: ${zone.tempC ?? 'unreadable'} °C of ${limit} °C`}
        indicatorClassName={
          !zone.measured
            ? 'bg-muted-foreground/40'
            : hot
              ? 'bg-destructive'
              : warm
                ? 'bg-warning'
                : 'bg-success'
        }
      />
      <span className="text-xs text-muted-foreground">
        {zone.throttleC !== null ? `throttles at ${zone.throttleC} °C` : null}
        {zone.throttleC !== null && zone.criticalC !== null ? ', ' : null}
        {zone.criticalC !== null ? `critical at ${zone.criticalC} °C` : null}
        {zone.throttleC === null && zone.criticalC === null ? 'no trip points' : null}
      </span>
    </div>
  );
}

function Facts({ report }: { report: JetsonReport }) {
  const pm = report.powerMode;
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2} className="flex flex-wrap items-center gap-2 text-lg">
          {report.isJetson ? (report.board.model ?? 'NVIDIA Jetson') : 'Not a Jetson'}
          <Badge variant={report.isJetson ? 'success' : 'outline'}>
            {report.isJetson ? 'Jetson' : 'Not a Jetson'}
          </Badge>
        </CardTitle>
        <CardDescription>
          Read from the host&apos;s files under {report.hostRoot} at{' '}
          {new Date(report.generatedAt).toLocaleTimeString()}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-6">
          <Fact
            label="SoC"
            value={report.board.soc ? `${report.board.family ?? ''} ${report.board.soc}`.trim() : '—'}
          />
          <Fact label="Jetson Linux" value={report.l4t ? `R${report.l4t.release}` : '—'} />
          <Fact
            label="JetPack"
            value={
              report.jetpack
                ? `${report.jetpack.version}${report.jetpack.match === 'major' ? ' (approximate)' : ''}`
                : '—'
            }
          />
          <Fact label="CUDA" value={report.cuda?.version ?? '—'} />
          <Fact
            label="Power mode"
            value={pm?.current ? `${pm.current.name ?? 'mode'} (${pm.current.id})` : '—'}
          />
          <Fact
            label="Memory"
            value={
              report.memory
                ? `${formatBytes(report.memory.availableBytes)} free of ${formatBytes(report.memory.totalBytes)}`
                : '—'
            }
          />
        </dl>
      </CardContent>
    </Card>
  );
}

/** /jetson-check: the field technician's view of the hub's hardware, refreshed while open. */
export function JetsonCheckPanel() {
  const { isAdmin } = useAuth();
  const [live, setLive] = useState(true);
  const report = useJetsonReport(live, isAdmin);
  const liveId = useId();
  if (!isAdmin) return <AdminOnly what="The Jetson check" />;
  if (report.error && !report.data) {
    return (
      <Alert variant="destructive">
        <AlertTitle>The Jetson check could not run</AlertTitle>
        <AlertDescription>{errorMessage(report.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!report.data) {
    return (
      <div className="grid gap-4" aria-busy="true" aria-label="Reading the hardware">
        <Skeleton className="h-32" />
        <Skeleton className="h-96" />
      </div>
    );
  }
  const r = report.data;
  const cpus = r.clocks.cpus;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-4">
        <CheckSummaryBadges summary={r.summary} />
        <div className="flex items-center gap-2">
          <Switch id={liveId} checked={live} onCheckedChange={setLive} />
          <Label htmlFor={liveId}>Refresh every 10 s</Label>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void report.refetch()}
          disabled={report.isFetching}
        >
          <RefreshCw aria-hidden="true" className={report.isFetching ? 'animate-spin' : undefined} /> Check
          now
        </Button>
      </div>
      <Facts report={r} />
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <Card>
          <CardHeader>
            <CardTitle role="heading" aria-level={2} className="text-lg">
              Checks
            </CardTitle>
            <CardDescription>Each one with what to do when it is not a pass.</CardDescription>
          </CardHeader>
          <CardContent>
            <CheckList checks={r.checks} label="Jetson checks" />
          </CardContent>
        </Card>
        <div className="grid content-start gap-4">
          {r.thermal.length > 0 ? (
            <Panel title="Temperatures" icon={Thermometer}>
              {r.thermal.map((zone) => (
                <ThermalBar key={zone.zone} zone={zone} />
              ))}
            </Panel>
          ) : null}
          {cpus.length > 0 || r.clocks.gpu ? (
            <Panel title="Clocks" icon={Cpu}>
              <Table label="Clocks table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Unit</TableHead>
                    <TableHead className="text-right">Now</TableHead>
                    <TableHead className="text-right">Range</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {cpus.map((c) => (
                    <TableRow key={c.cpu}>
                      <TableCell>cpu{c.cpu}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {c.online ? (c.curMHz !== null ? `${c.curMHz} MHz` : '—') : 'offline'}
                      </TableCell>
                      <TableCell className="text-right text-muted-foreground tabular-nums">
                        {c.minMHz !== null && c.maxMHz !== null ? `${c.minMHz}–${c.maxMHz} MHz` : '—'}
                      </TableCell>
                    </TableRow>
                  ))}
                  {r.clocks.gpu ? (
                    <TableRow>
                      <TableCell>GPU ({r.clocks.gpu.name})</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {r.clocks.gpu.curMHz !== null ? `${r.clocks.gpu.curMHz} MHz` : '—'}
                      </TableCell>
                      <TableCell className="text-right text-muted-foreground tabular-nums">
                        {r.clocks.gpu.minMHz !== null && r.clocks.gpu.maxMHz !== null
                          ? `${r.clocks.gpu.minMHz}–${r.clocks.gpu.maxMHz} MHz`
                          : '—'}
                      </TableCell>
                    </TableRow>
                  ) : null}
                </TableBody>
              </Table>
            </Panel>
          ) : null}
          {r.powerRails.length > 0 ? (
            <Panel title="Power rails" icon={Zap} description="INA3221 monitors on the module">
              <Table label="Power rails table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Rail</TableHead>
                    <TableHead className="text-right">Volts</TableHead>
                    <TableHead className="text-right">Amps</TableHead>
                    <TableHead className="text-right">Watts</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {r.powerRails.map((rail) => (
                    <TableRow key={rail.name}>
                      <TableCell>{rail.name}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {rail.voltageV?.toFixed(2) ?? '—'}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {rail.currentA?.toFixed(2) ?? '—'}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {rail.powerW?.toFixed(2) ?? '—'}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Panel>
          ) : null}
          {r.disks.length > 0 ? (
            <Panel title="Disks" icon={Cpu}>
              {r.disks.map((d) => {
                const used = d.totalBytes - d.availableBytes;
                return (
                  <div key={d.label} className="grid gap-1">
                    <div className="flex justify-between gap-2 text-sm">
                      <span className="font-medium">{d.label}</span>
                      <span className="tabular-nums">
                        {formatBytes(d.availableBytes)} free of {formatBytes(d.totalBytes)}
                      </span>
                    </div>
                    <Progress
                      value={used}
                      max={d.totalBytes || 1}
                      aria-label={`${d.label}: ${formatBytes(used)} used`}
                    />
                  </div>
                );
              })}
            </Panel>
          ) : null}
        </div>
      </div>
    </div>
  );
}
