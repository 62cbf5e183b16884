import { Workflow } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useSequences } from '@/data/analytics';
import { durationWords, liftWords } from '../analytics-logic';
import { ConfidenceBar, Empty, Loading } from './shared';
import { LoadError } from '@/components/load-state';

/** A then B within a window: e.g. the front door opens, then the hallway light goes on. */
export function SequencesPanel() {
  const sequences = useSequences();
  const list = sequences.data?.sequences;
  return (
    <Panel
      title="Sequences"
      icon={Workflow}
      description="One change followed by another within minutes, more often than chance; lift says how much more."
    >
      {list ? (
        list.length ? (
          <Table label="Sequences" data-testid="analytics-sequences">
            <TableHeader>
              <TableRow>
                <TableHead scope="col">When</TableHead>
                <TableHead scope="col">Then</TableHead>
                <TableHead scope="col">Median delay</TableHead>
                <TableHead scope="col">Confidence</TableHead>
                <TableHead scope="col">Lift</TableHead>
                <TableHead scope="col">Seen</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {[...list]
                .sort((a, b) => b.confidence - a.confidence)
                .map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>
                      <span className="font-medium">{s.from.name}</span> → {s.from.state}
                      {s.kind === 'presence' ? (
                        <Badge variant="secondary" className="ml-2">
                          Arrival
                        </Badge>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      <span className="font-medium">{s.to.name}</span> → {s.to.state}
                    </TableCell>
                    <TableCell className="tabular-nums">{durationWords(s.medianDelaySeconds)}</TableCell>
                    <TableCell>
                      <ConfidenceBar
                        value={s.confidence}
                        label={`Confidence: ${s.from.name} ${s.from.state}, then ${s.to.name} ${s.to.state}`}
                      />
                    </TableCell>
                    <TableCell className="tabular-nums">{liftWords(s.lift)}</TableCell>
                    <TableCell className="tabular-nums">{s.count}×</TableCell>
                  </TableRow>
                ))}
            </TableBody>
          </Table>
        ) : (
          <Empty>
            No sequence found yet: they show once one change reliably follows another in the history.
          </Empty>
        )
      ) : sequences.error ? (
        <LoadError what="the sequences" query={sequences} />
      ) : (
        <Loading label="Loading the sequences" />
      )}
    </Panel>
  );
}
