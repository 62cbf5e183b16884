/**
 * What a chart axis measures, drawn along it (issue 21: every axis says its unit). Spread into a
 * recharts <XAxis>/<YAxis>: `<YAxis {...axisUnit('y', 'messages')} />`. The x axis grows to fit the
 * label under its ticks; the y axis's label runs along its side, inside the width given to it.
 */
export function axisUnit(axis: 'x' | 'y', unit: string) {
  const label = { value: unit, fill: 'var(--color-muted-foreground)', fontSize: 11 };
  return axis === 'x'
    ? { height: 40, label: { ...label, position: 'insideBottom' as const, offset: 0 } }
    : {
        label: {
          ...label,
          angle: -90,
          position: 'insideLeft' as const,
          style: { textAnchor: 'middle' as const },
        },
      };
}
