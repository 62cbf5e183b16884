import { useQuery } from '@tanstack/react-query';
import { ArrowRight, CheckCircle2, Circle, Clock } from 'lucide-react';
import { Link } from 'wouter';
import type { OnboardingItem } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import { onboardingQueryOptions } from '@/data/onboarding';
import { pageContainer } from '@/components/page-container';

/** /onboarding: the first-run checklist, read from the hub's real state each time it opens. */
export function OnboardingPage() {
  const checklist = useQuery(onboardingQueryOptions());
  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Onboarding</h1>
        <p className="text-sm text-muted-foreground">
          What is left to set up on this hub. Each step ticks itself once the hub sees it done.
        </p>
      </header>
      <RefreshError what="the hub's state" query={checklist} />
      {checklist.isLoading ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">Checking the hub</span>
          <Skeleton className="h-3 w-full" />
          {Array.from({ length: 7 }, (_, i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      ) : checklist.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not read the hub&apos;s state</AlertTitle>
          <AlertDescription>{errorMessage(checklist.error)}</AlertDescription>
        </Alert>
      ) : checklist.data ? (
        <Checklist items={checklist.data.items} done={checklist.data.done} total={checklist.data.total} />
      ) : null}
    </div>
  );
}

function Checklist({ items, done, total }: { items: OnboardingItem[]; done: number; total: number }) {
  const next = items.find((item) => item.available && !item.done);
  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <div className="flex justify-between text-sm">
          <span id="onboarding-progress" className="font-medium">
            {done} of {total} steps done
          </span>
          <span className="text-muted-foreground">{Math.round((done / total) * 100)}%</span>
        </div>
        <Progress value={done} max={total} aria-labelledby="onboarding-progress" />
      </div>
      <ol aria-label="Setup checklist" className="space-y-3">
        {items.map((item) => (
          <Step key={item.id} item={item} isNext={item === next} />
        ))}
      </ol>
    </div>
  );
}

function Step({ item, isNext }: { item: OnboardingItem; isNext: boolean }) {
  const Icon = item.done ? CheckCircle2 : item.available ? Circle : Clock;
  const state = item.done ? 'Done' : item.available ? (isNext ? 'Next step' : 'To do') : 'Not available yet';
  return (
    <li data-step={item.id} data-done={item.done}>
      <Card className={cn(isNext && 'border-primary ring-1 ring-primary', !item.available && 'opacity-70')}>
        <CardContent className="flex items-start gap-3 p-4">
          <Icon
            aria-hidden="true"
            className={cn(
              'mt-0.5 size-5 shrink-0',
              item.done ? 'text-success' : isNext ? 'text-primary' : 'text-muted-foreground',
            )}
          />
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{item.title}</span>
              <Badge variant={item.done ? 'success' : isNext ? 'default' : 'outline'}>{state}</Badge>
            </div>
            <p className="text-sm text-muted-foreground">{item.detail}</p>
          </div>
          {item.available && !item.done ? (
            <Button asChild size="sm" variant={isNext ? 'default' : 'outline'}>
              <Link href={item.href}>
                Open
                <span className="sr-only"> {item.title}</span>
                <ArrowRight aria-hidden="true" className="size-4" />
              </Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}
