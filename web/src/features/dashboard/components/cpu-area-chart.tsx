import { Area, AreaChart, YAxis } from 'recharts';

/**
 * The live CPU sparkline's drawing. The chart library is the largest part of the dashboard's
 * JavaScript (about 90 KB gzip), so it loads on its own after the first values are on screen
 * (system-health-card.tsx imports this lazily).
 */
export default function CpuAreaChart({ points }: { points: { t: number; cpu: number }[] }) {
  return (
    <AreaChart
      data={points}
      responsive
      style={{ width: '100%', height: '100%' }}
      margin={{ top: 2, right: 0, bottom: 0, left: 0 }}
      accessibilityLayer={false}
    >
      <YAxis hide domain={[0, 100]} />
      <Area
        type="monotone"
        dataKey="cpu"
        stroke="var(--color-primary)"
        fill="var(--color-primary)"
        fillOpacity={0.15}
        strokeWidth={1.5}
        isAnimationActive={false}
        dot={false}
      />
    </AreaChart>
  );
}
