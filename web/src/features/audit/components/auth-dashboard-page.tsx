import { LoadError, RefreshError } from '@/components/load-state';
import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'wouter';
import { BarChart3, Download, ListFilter, ScrollText, ShieldAlert } from 'lucide-react';
import { AUDIT_EVENT_TYPES, type AuditEvent, type AuditEventType } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/features/auth';
import {
  NO_FILTERS,
  auditCsvUrl,
  auditEventsQueryOptions,
  auditSummaryQueryOptions,
  type AuditFilters,
} from '@/data/audit';
import { axisUnit } from '@/lib/chart-axis';
import { pageContainer } from '@/components/page-container';

const WINDOWS = [7, 30, 90] as const;
const ANY_TYPE = 'any';
const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };
const tooltipStyle = {
  backgroundColor: 'var(--color-popover)',
  border: '1px solid var(--color-border)',
  borderRadius: 8,
  color: 'var(--color-popover-foreground)',
};

/** Each event type in words, for the table and the type filter. */
const EVENT_LABELS: Record<AuditEventType, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  sign_in_throttled: 'Sign-in throttled',
  sign_out: 'Signed out',
  password_changed: 'Password changed',
  password_reset: 'Password reset',
  email_changed: 'E-mail changed',
  two_factor_enabled: '2FA turned on',
  two_factor_disabled: '2FA turned off',
  recovery_codes_generated: 'Recovery codes made',
  recovery_code_used: 'Recovery code used',
  passkey_added: 'Passkey added',
  passkey_renamed: 'Passkey renamed',
  passkey_removed: 'Passkey removed',
  passkey_sign_in: 'Signed in with a passkey',
  reauthenticated: 'Confirmed identity',
  session_revoked: 'Session ended',
  sessions_revoked: 'Other sessions ended',
  phone_paired: 'Phone paired',
  account_created: 'Account created',
  account_disabled: 'Account disabled',
  account_enabled: 'Account enabled',
  account_deleted: 'Account deleted',
  role_changed: 'Role changed',
  invite_created: 'Invite created',
  invite_revoked: 'Invite revoked',
  api_key_created: 'API key created',
  api_key_revoked: 'API key revoked',
  satellite_token_created: 'Satellite token issued',
  settings_secret_changed: 'Secret setting changed',
  backup_created: 'Backup made',
  backup_downloaded: 'Backup downloaded',
  backup_deleted: 'Backup deleted',
  backup_restored: 'Backup restored',
  restore_confirmed: 'Restore confirmed',
  restore_reverted: 'Restore reverted',
  container_updated: 'Container updated',
  licence_activated: 'Licence activated',
  licence_deactivated: 'Licence deactivated',
  tls_certificate_replaced: 'HTTPS certificate replaced',
  tls_certificate_reset: 'HTTPS certificate reset to the hub’s',
  analytics_settings_changed: 'Analytics settings changed',
  analytics_history_deleted: 'Analytics history deleted',
  analytics_automation_created: 'Automation created from a suggestion',
  fleet_created: 'Fleet created',
  fleet_joined: 'Joined a fleet',
  fleet_left: 'Left the fleet',
  fleet_token_rotated: 'Fleet join token rotated',
  fleet_node_changed: 'Fleet node changed',
};

/** /auth-dashboard: sign-in activity and the security event log, for admins. */
export function AuthDashboardPage() {
  const { isAdmin } = useAuth();
  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Sign-in Activity</h1>
        <p className="text-muted-foreground">
          Sign-ins and every security event on this hub: who, from where and when. Events are kept for a year.
        </p>
      </header>
      {isAdmin ? (
        <>
          <Activity />
          <EventLog />
        </>
      ) : (
        <AdministratorsOnly />
      )}
    </div>
  );
}

/** The agent answers members 403 anyway; this says so before they try. */
function AdministratorsOnly() {
  return (
    <Card>
      <CardContent className="space-y-4 p-6">
        <p className="flex items-start gap-2 text-sm">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          The security log is for administrators. Your own sessions and sign-in settings are in Account
          Settings.
        </p>
        <Button asChild variant="outline">
          <Link href="/settings">Account Settings</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function RowsSkeleton({ rows, label }: { rows: number; label: string }) {
  return (
    <div role="status" className="grid gap-3" aria-busy="true">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-6 w-full" />
      ))}
    </div>
  );
}

function Activity() {
  const [days, setDays] = useState<(typeof WINDOWS)[number]>(30);
  const summary = useQuery(auditSummaryQueryOptions(days));
  const period = (
    <div role="group" aria-label="Period" className="flex gap-1 rounded-lg bg-muted p-1">
      {WINDOWS.map((d) => (
        <Button
          key={d}
          size="sm"
          className="h-7"
          variant={days === d ? 'outline' : 'ghost'}
          aria-pressed={days === d}
          onClick={() => setDays(d)}
        >
          {d} days
        </Button>
      ))}
    </div>
  );

  if (summary.isPending) {
    return (
      <Panel title="Sign-ins per day" icon={BarChart3} actions={period}>
        <div className="grid gap-4 sm:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-20" />
          ))}
        </div>
        <RowsSkeleton rows={6} label="Loading sign-in activity" />
      </Panel>
    );
  }
  if (summary.isLoadingError) {
    return (
      <Panel title="Sign-ins per day" icon={BarChart3} actions={period}>
        <LoadError what="the sign-in activity" query={summary} />
      </Panel>
    );
  }
  const { totals, signInsPerDay, failuresByAddress } = summary.data;
  const points = signInsPerDay.map((d) => ({ day: d.date, Successful: d.success, Failed: d.failure }));
  return (
    <>
      <RefreshError what="the sign-in activity" query={summary} />
      <dl className="grid gap-4 sm:grid-cols-4" aria-label={`Totals for the last ${days} days`}>
        <Stat label="Sign-ins" value={totals.signIns} />
        <Stat label="Failed sign-ins" value={totals.failures} />
        <Stat label="Throttled attempts" value={totals.throttled} />
        <Stat label="2FA and passkey changes" value={totals.factorChanges} />
      </dl>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Panel
            title="Sign-ins per day"
            icon={BarChart3}
            description="Successful and failed sign-ins, by UTC day."
            actions={period}
          >
            {totals.signIns + totals.failures === 0 ? (
              <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
                No sign-ins in the last {days} days.
              </p>
            ) : (
              <div
                role="img"
                aria-label={`Sign-ins per day over the last ${days} days: ${totals.signIns} successful, ${totals.failures} failed`}
                className="h-72 w-full"
              >
                <BarChart data={points} responsive style={{ width: '100%', height: '100%' }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
                  <XAxis
                    dataKey="day"
                    tick={axisTick}
                    tickFormatter={(d: string) => d.slice(5)}
                    {...axisUnit('x', 'day (month-day)')}
                  />
                  <YAxis allowDecimals={false} tick={axisTick} width={44} {...axisUnit('y', 'sign-ins')} />
                  <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--color-muted)' }} />
                  <Legend />
                  <Bar dataKey="Successful" fill="var(--color-success)" isAnimationActive={false} />
                  <Bar dataKey="Failed" fill="var(--color-destructive)" isAnimationActive={false} />
                </BarChart>
              </div>
            )}
          </Panel>
        </div>
        <Panel title="Failures by address" icon={ShieldAlert} description="Failed or throttled sign-ins.">
          {failuresByAddress.length === 0 ? (
            <p className="text-sm text-muted-foreground">No failed sign-ins in this period.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Address</TableHead>
                  <TableHead className="text-right">Failures</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {failuresByAddress.map((f) => (
                  <TableRow key={f.ipAddress}>
                    <TableCell className="font-mono text-xs">{f.ipAddress}</TableCell>
                    <TableCell className="text-right tabular-nums">{f.count}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Panel>
      </div>
    </>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border bg-card p-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value.toLocaleString()}</dd>
    </div>
  );
}

function EventLog() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const events = useInfiniteQuery(auditEventsQueryOptions(filters));
  const filtered = Object.values(filters).some(Boolean);
  const rows = events.data?.pages.flatMap((p) => p.events) ?? [];

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
  };

  return (
    <Panel
      title="Security events"
      icon={ScrollText}
      description="Newest first."
      actions={
        <Button asChild variant="outline" size="sm">
          <a href={auditCsvUrl(filters)} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      }
    >
      <form
        onSubmit={apply}
        aria-label="Filter events"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
      >
        <div className="grid gap-1.5">
          <Label htmlFor="audit-type">Event</Label>
          <Select
            value={draft.type || ANY_TYPE}
            onValueChange={(v) => setDraft({ ...draft, type: v === ANY_TYPE ? '' : (v as AuditEventType) })}
          >
            <SelectTrigger id="audit-type">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY_TYPE}>All events</SelectItem>
              {AUDIT_EVENT_TYPES.map((t) => (
                <SelectItem key={t} value={t}>
                  {EVENT_LABELS[t]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-user">Account (e-mail or id)</Label>
          <Input
            id="audit-user"
            value={draft.user}
            maxLength={254}
            onChange={(e) => setDraft({ ...draft, user: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-from">From (UTC)</Label>
          <Input
            id="audit-from"
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-to">To (UTC)</Label>
          <Input
            id="audit-to"
            type="date"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </div>
        <div className="flex items-end gap-2">
          <Button type="submit">
            <ListFilter aria-hidden="true" />
            Apply
          </Button>
          {filtered ? (
            <Button type="button" variant="ghost" onClick={clear}>
              Clear
            </Button>
          ) : null}
        </div>
      </form>

      <RefreshError what="the security events" query={events} />
      {events.isPending ? (
        <RowsSkeleton rows={8} label="Loading security events" />
      ) : events.isLoadingError ? (
        <LoadError what="the security events" query={events} />
      ) : rows.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          {filtered ? 'No events match these filters.' : 'No security events yet.'}
        </p>
      ) : (
        <>
          <EventsTable events={rows} />
          {events.hasNextPage ? (
            <Button
              variant="outline"
              className="self-center"
              disabled={events.isFetchingNextPage}
              onClick={() => void events.fetchNextPage()}
            >
              {events.isFetchingNextPage ? 'Loading…' : 'Load older events'}
            </Button>
          ) : null}
        </>
      )}
    </Panel>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function person(p: { id: number | null; email: string | null } | null): string | null {
  if (!p || (p.id === null && p.email === null)) return null;
  return p.email ?? `#${p.id}`;
}

/** What the row concerns besides its actor, in words. */
function concerning(e: AuditEvent): string {
  const parts: string[] = [];
  const target = person(e.targetUser);
  if (target) parts.push(target);
  if (e.target) parts.push(e.target);
  const d = e.details ?? {};
  if (e.type === 'role_changed' && typeof d.from === 'string' && typeof d.to === 'string') {
    parts.push(`${d.from} → ${d.to}`);
  }
  if (!target && e.actor.id === null && typeof d.email === 'string') parts.push(d.email);
  if (typeof d.reason === 'string') parts.push(d.reason.replaceAll('_', ' '));
  return parts.join(' · ');
}

function EventsTable({ events }: { events: AuditEvent[] }) {
  return (
    <div className="overflow-x-auto">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Event</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>Concerning</TableHead>
            <TableHead>From</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {events.map((e) => (
            <TableRow key={e.id}>
              <TableCell className="whitespace-nowrap tabular-nums">
                <time dateTime={e.at}>{dateTime.format(new Date(e.at))}</time>
              </TableCell>
              <TableCell>
                <span className="flex items-center gap-2">
                  {EVENT_LABELS[e.type] ?? e.type}
                  {e.outcome === 'failure' ? <Badge variant="destructive">Failed</Badge> : null}
                </span>
              </TableCell>
              <TableCell>
                {person(e.actor) ?? <span className="text-muted-foreground">Unknown</span>}
              </TableCell>
              <TableCell className="max-w-72 break-words">{concerning(e)}</TableCell>
              <TableCell>
                <span className="font-mono text-xs">{e.ipAddress ?? '—'}</span>
                {e.userAgent ? (
                  <span className="block max-w-56 truncate text-xs text-muted-foreground" title={e.userAgent}>
                    {e.userAgent}
                  </span>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
