import type { SatelliteSource } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { sourceLabel } from './satellite-format';

/** Where a satellite comes from: Home Assistant, Wyoming or the Nexus satellite API. */
export function SourceBadge({ source }: { source: SatelliteSource }) {
  return (
    <Badge variant={source === 'nexus' ? 'outline' : 'secondary'} data-source={source}>
      {sourceLabel(source)}
    </Badge>
  );
}
