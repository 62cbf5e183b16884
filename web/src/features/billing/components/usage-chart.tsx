import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { SubscriptionUsage } from '@nexus/agent/contract';
import { usageTotals } from '../billing-logic';
import { axisUnit } from '@/lib/chart-axis';

const axisTick = { fill: 'var(--color-muted-foreground)', fontSize: 11 };
const tooltipStyle = {
  backgroundColor: 'var(--color-popover)',
  border: '1px solid var(--color-border)',
  borderRadius: 8,
  color: 'var(--color-popover-foreground)',
};

/** Messages per day, cloud (counted toward the plan's limit) stacked on local (never limited). */
export function UsageChart({ days }: { days: SubscriptionUsage['days'] }) {
  const totals = usageTotals(days);
  return (
    <div
      role="img"
      aria-label={`AI messages per day over the last ${days.length} days: ${totals.cloud} answered by cloud models, ${totals.local} by models on this hub`}
      className="h-64 w-full"
      data-testid="usage-chart"
    >
      <BarChart data={days} responsive style={{ width: '100%', height: '100%' }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
        <XAxis
          dataKey="date"
          tick={axisTick}
          tickFormatter={(d: string) => d.slice(5)}
          {...axisUnit('x', 'day (month-day)')}
        />
        <YAxis allowDecimals={false} tick={axisTick} width={44} {...axisUnit('y', 'messages')} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--color-muted)' }} />
        <Legend />
        <Bar
          dataKey="cloudMessages"
          name="Cloud models"
          stackId="messages"
          fill="var(--color-primary)"
          isAnimationActive={false}
        />
        <Bar
          dataKey="localMessages"
          name="Local models"
          stackId="messages"
          fill="var(--color-success)"
          isAnimationActive={false}
        />
      </BarChart>
    </div>
  );
}
