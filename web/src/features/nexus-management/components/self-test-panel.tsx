import { useMutation } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { CheckList, CheckSummaryBadges } from '@/components/check-list';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { runSelfTest } from '@/data/nexus-management';
import { AdminOnly } from './admin-only';

/** /nexus-test: every probe now, grouped, with what to fix. */
export function SelfTestPanel() {
  const { isAdmin } = useAuth();
  const test = useMutation({ mutationFn: runSelfTest });
  if (!isAdmin) return <AdminOnly what="The self-test" />;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => test.mutate()} disabled={test.isPending}>
          <FlaskConical aria-hidden="true" />
          {test.isPending ? 'Testing...' : test.data ? 'Run again' : 'Run the self-test'}
        </Button>
        {test.data ? (
          <>
            <CheckSummaryBadges summary={test.data.summary} />
            <span className="text-sm text-muted-foreground">
              {new Date(test.data.startedAt).toLocaleTimeString()}, took{' '}
              {(test.data.durationMs / 1000).toFixed(1)} s
            </span>
          </>
        ) : null}
      </div>
      <div aria-live="polite" aria-busy={test.isPending} className="grid gap-4">
        {test.isPending ? (
          <Skeleton className="h-64 w-full" />
        ) : test.error ? (
          <Alert variant="destructive">
            <AlertTitle>The self-test could not run</AlertTitle>
            <AlertDescription>{errorMessage(test.error)}</AlertDescription>
          </Alert>
        ) : test.data ? (
          test.data.groups.map((group) => (
            <Card key={group.id}>
              <CardHeader>
                <CardTitle role="heading" aria-level={2} className="text-lg">
                  {group.title}
                </CardTitle>
                <CardDescription>{group.durationMs} ms</CardDescription>
              </CardHeader>
              <CardContent>
                <CheckList checks={group.checks} label={`${group.title} checks`} />
              </CardContent>
            </Card>
          ))
        ) : (
          <p className="rounded-lg border border-dashed p-8 text-sm text-muted-foreground">
            The self-test asks every service (database, container engine, Ollama, Home Assistant, the deployed
            stacks), checks the network and reads the hardware. It takes a few seconds.
          </p>
        )}
      </div>
    </div>
  );
}
