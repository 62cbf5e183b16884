import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import type { Engine, WakeWord } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/request';
import { engineExportQueryOptions } from '@/data/wake-words';

const ENGINES: { value: Engine; label: string }[] = [
  { value: 'microwakeword', label: 'microWakeWord (ESPHome)' },
  { value: 'openwakeword', label: 'openWakeWord (Wyoming)' },
  { value: 'precise', label: 'Mycroft Precise' },
  { value: 'porcupine', label: 'Porcupine' },
];

/** What each engine needs: the steps and the configuration files, ready to download. */
export function ExportPanel({ wakeWord }: { wakeWord: WakeWord }) {
  const [engine, setEngine] = useState<Engine>('microwakeword');
  const out = useQuery(engineExportQueryOptions(wakeWord.id, engine));
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Engines and configuration files</CardTitle>
        <CardDescription>
          Train and deploy “{wakeWord.phrase}” with the engine your devices run.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Tabs value={engine} onValueChange={(v) => setEngine(v as Engine)}>
          <TabsList className="flex-wrap">
            {ENGINES.map((e) => (
              <TabsTrigger key={e.value} value={e.value}>
                {e.label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value={engine} className="mt-4">
            <RefreshError what="the export" query={out} className="mb-4" />
            {out.isLoading ? (
              <Skeleton className="h-40 w-full" />
            ) : out.isLoadingError ? (
              <p className="text-sm text-destructive">{errorMessage(out.error)}</p>
            ) : out.data ? (
              <div className="space-y-4">
                <ol className="list-decimal space-y-1 pl-5 text-sm">
                  {out.data.steps.map((step) => (
                    <li key={step}>{step}</li>
                  ))}
                </ol>
                {out.data.files.map((file) => (
                  <div key={file.name} className="space-y-2">
                    <div className="flex items-center justify-between gap-2">
                      <h3 className="font-mono text-sm">{file.name}</h3>
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Download ${file.name}`}
                        onClick={() => downloadText(file.name, file.content, file.contentType)}
                      >
                        <Download aria-hidden="true" />
                        Download
                      </Button>
                    </div>
                    <pre className="max-h-72 overflow-auto rounded-md bg-muted p-3 text-xs" tabIndex={0}>
                      {file.content}
                    </pre>
                  </div>
                ))}
              </div>
            ) : null}
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

function downloadText(name: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}
