import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { BarChart3, Boxes, Server, Users } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { usageQueryOptions } from '@/data/llm';
import { byModel, byNode, byUser, grandTotal, messagesByDay, type Total } from '../usage-series';
import { EmptyState, LoadError, RefreshError, RowsSkeleton, Section } from './section';
import { RelatedLinks } from '@/components/related-links';
import { axisUnit } from '@/lib/chart-axis';
import { pageContainer } from '@/components/page-container';

const WINDOWS = [7, 30, 90] as const;
/** Chart colours: the theme's tokens first, then hues that read on both backgrounds. */
const COLORS = [
  'var(--color-primary)',
  'oklch(0.66 0.15 200)',
  'var(--color-success)',
  'var(--color-warning)',
  'oklch(0.64 0.18 320)',
  'oklch(0.6 0.12 250)',
  'oklch(0.7 0.13 110)',
  'var(--color-destructive)',
];
const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };
const tooltipStyle = {
  backgroundColor: 'var(--color-popover)',
  border: '1px solid var(--color-border)',
  borderRadius: 8,
  color: 'var(--color-popover-foreground)',
};

/** /llm-usage-discovery: answered messages by day, user and model, from the hub's usage events. */
export function UsagePage() {
  const [days, setDays] = useState<(typeof WINDOWS)[number]>(30);
  const usage = useQuery(usageQueryOptions(days));

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">LLM Usage</h1>
          <p className="text-muted-foreground">
            Every answered AI message, by day, person and model.
            {usage.data?.scope === 'own' ? ' You see your own use; admins see everyone’s.' : ''}
          </p>
          <RelatedLinks links={[{ label: 'How tokens are counted', href: '/tokenization-demo' }]} />
        </div>
        <div role="group" aria-label="Time window" className="flex gap-1 rounded-lg bg-muted p-1">
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
      </header>

      <RefreshError what="the usage" query={usage} />
      {usage.isPending ? (
        <RowsSkeleton rows={8} />
      ) : usage.isLoadingError ? (
        <LoadError what="the usage" query={usage} />
      ) : usage.data.rows.length === 0 ? (
        <EmptyState icon={BarChart3} title={`No AI messages in the last ${days} days`}>
          Chat with a model on the LLM Control Center and the use shows up here.
        </EmptyState>
      ) : (
        <UsageCharts rows={usage.data.rows} since={usage.data.since} days={days} />
      )}
    </div>
  );
}

function UsageCharts({
  rows,
  since,
  days,
}: {
  rows: Parameters<typeof byUser>[0];
  since: string;
  days: number;
}) {
  const { models, points } = messagesByDay(rows, since, days);
  const users = byUser(rows);
  const perModel = byModel(rows);
  const perNode = byNode(rows);
  const total = grandTotal(rows);
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-4">
        <Stat label="Messages" value={total.messages} />
        <Stat label="Tokens" value={total.tokens} />
        <Stat label="People" value={users.length} />
        <Stat label="Models" value={perModel.length} />
      </dl>
      <Section title="Messages per day" icon={BarChart3} description="Stacked by model.">
        <div
          role="img"
          aria-label={`Messages per day over the last ${days} days, by model`}
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
            <YAxis allowDecimals={false} tick={axisTick} width={44} {...axisUnit('y', 'messages')} />
            <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--color-muted)' }} />
            <Legend />
            {models.map((m, i) => (
              <Bar
                key={m}
                dataKey={m}
                stackId="models"
                fill={COLORS[i % COLORS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </div>
      </Section>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="By person" icon={Users}>
          <TotalsChart totals={users} label="Messages per person" />
          <TotalsTable totals={users} first="Person" />
        </Section>
        <Section title="By model" icon={Boxes}>
          <TotalsChart totals={perModel} label="Messages per model" />
          <TotalsTable totals={perModel} first="Model" />
        </Section>
      </div>
      {rows.some((r) => r.node !== null) ? (
        <Section
          title="By node"
          icon={Server}
          description="Which node’s Ollama answered: the hub’s own and the fleet’s."
        >
          <TotalsTable totals={perNode} first="Node" />
        </Section>
      ) : null}
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

function TotalsChart({ totals, label }: { totals: Total[]; label: string }) {
  const data = totals.slice(0, 10);
  return (
    <div role="img" aria-label={label} style={{ height: Math.max(120, data.length * 32) }} className="w-full">
      <BarChart data={data} layout="vertical" responsive style={{ width: '100%', height: '100%' }}>
        <XAxis type="number" allowDecimals={false} tick={axisTick} {...axisUnit('x', 'messages')} />
        <YAxis type="category" dataKey="label" width={140} tick={axisTick} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--color-muted)' }} />
        <Bar dataKey="messages" name="Messages" fill="var(--color-primary)" isAnimationActive={false} />
      </BarChart>
    </div>
  );
}

function TotalsTable({ totals, first }: { totals: Total[]; first: string }) {
  return (
    <Table label={`Totals by ${first.toLowerCase()}`}>
      <TableHeader>
        <TableRow>
          <TableHead>{first}</TableHead>
          <TableHead className="text-right">Messages</TableHead>
          <TableHead className="text-right">Prompt tokens</TableHead>
          <TableHead className="text-right">Answer tokens</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {totals.map((t) => (
          <TableRow key={t.key}>
            <TableCell className="font-medium">{t.label}</TableCell>
            <TableCell className="text-right tabular-nums">{t.messages.toLocaleString()}</TableCell>
            <TableCell className="text-right tabular-nums">{t.promptTokens.toLocaleString()}</TableCell>
            <TableCell className="text-right tabular-nums">{t.completionTokens.toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
