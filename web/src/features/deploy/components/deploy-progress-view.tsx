import { CheckCircle2, CircleAlert, Loader2 } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Progress } from '@/components/ui/progress';
import { errorLine, imagePercent, type DeployProgress } from '../deploy-progress';

/** Live progress of a deployment: pulls per layer, what was created and started, the health probe, the outcome. */
export function DeployProgressView({ progress }: { progress: DeployProgress }) {
  const line = progress.error ? errorLine(progress.error.details) : null;
  const outcome = progress.deployment?.outcome;
  return (
    <section aria-label="Deployment progress" className="grid gap-4" aria-live="polite">
      <div className="flex items-center gap-2 text-sm font-medium">
        {progress.phase === 'running' ? (
          <>
            <Loader2 aria-hidden="true" className="size-4 animate-spin text-primary" /> Deploying…
          </>
        ) : progress.phase === 'done' ? (
          <>
            <CheckCircle2 aria-hidden="true" className="size-4 text-success" /> Deployed
          </>
        ) : (
          <>
            <CircleAlert aria-hidden="true" className="size-4 text-destructive" /> Deployment failed
          </>
        )}
      </div>

      {progress.images.map((image) => {
        const percent = imagePercent(image);
        return (
          <div key={image.image} className="grid gap-2 rounded-md border p-3">
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="font-medium break-all">{image.image}</span>
              <span className="text-muted-foreground">
                {image.done ? 'Pulled' : percent === null ? image.status : `${percent}%`}
              </span>
            </div>
            <Progress value={percent ?? 0} aria-label={`Pull of ${image.image}`} />
            {image.layers.length > 0 && !image.done ? (
              <ul className="grid gap-1 text-xs text-muted-foreground">
                {image.layers.map((layer) => (
                  <li key={layer.id} className="grid grid-cols-[7rem_1fr_8rem] items-center gap-2">
                    <span className="truncate font-mono">{layer.id}</span>
                    <Progress
                      className="h-1"
                      value={
                        layer.total
                          ? ((layer.current ?? 0) / layer.total) * 100
                          : /complete|exists/i.test(layer.status)
                            ? 100
                            : 0
                      }
                      aria-label={`Layer ${layer.id}`}
                    />
                    <span className="truncate">{layer.status}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        );
      })}

      {progress.steps.length || progress.created.length || progress.started.length ? (
        <ol className="grid gap-1 text-sm text-muted-foreground">
          {progress.steps.map((step, i) => (
            <li key={`s${i}`}>{step}</li>
          ))}
          {progress.created.map((item) => (
            <li key={`c${item}`}>Created {item}</li>
          ))}
          {progress.started.map((item) => (
            <li key={`t${item}`} className="text-foreground">
              Started {item}
            </li>
          ))}
        </ol>
      ) : null}

      {progress.health ? (
        <Alert variant={progress.health.ok ? 'success' : 'warning'}>
          <AlertTitle>
            {progress.health.ok ? 'The service answers' : 'The service does not answer yet'}
          </AlertTitle>
          <AlertDescription>{progress.health.message}</AlertDescription>
        </Alert>
      ) : null}

      {progress.error ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>
            {line ? `The compose file has a problem at line ${line}` : 'The deployment did not complete'}
          </AlertTitle>
          <AlertDescription>
            <p className="break-words" data-testid="deploy-error">
              {progress.error.message}
            </p>
            {outcome ? (
              <p className="mt-2">
                {outcome.removed.length
                  ? `Removed what it had created: ${outcome.removed.join(', ')}. `
                  : 'Nothing had been created. '}
                {outcome.standing.length
                  ? `Still standing: ${outcome.standing.map((s) => `${s.name} (${s.state})`).join(', ')}.`
                  : 'Nothing of this stack is left running.'}
              </p>
            ) : null}
          </AlertDescription>
        </Alert>
      ) : null}
    </section>
  );
}
