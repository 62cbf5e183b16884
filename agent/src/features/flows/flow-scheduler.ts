import { Cron } from 'croner';
import { HttpError } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';

export const NEXT_RUNS_SHOWN = 5;

/** The next `count` times a cron expression fires in a time zone; 400 when either is invalid. */
export function nextRuns(cron: string, timezone: string, count = NEXT_RUNS_SHOWN, from?: Date): string[] {
  try {
    const job = new Cron(cron, { timezone, paused: true, startAt: from });
    const runs = job.nextRuns(count, from).map((d) => d.toISOString());
    job.stop();
    return runs;
  } catch (error) {
    throw new HttpError(400, `Invalid schedule: ${(error as Error).message.replace(/^Cron\w*: /, '')}`);
  }
}

/**
 * One croner job per active schedule flow. `sync(flow)` after every change puts the job in line
 * with the flow (started, rescheduled or stopped); `stop()` when the app shuts down.
 */
export function createFlowScheduler(deps: { log: Logger; fire: (flowId: number) => Promise<void> }) {
  const jobs = new Map<number, { key: string; job: Cron }>();

  function unschedule(flowId: number) {
    jobs.get(flowId)?.job.stop();
    jobs.delete(flowId);
  }

  return {
    sync(flow: { id: number; active: boolean; schedule: { cron: string; timezone: string } | null }) {
      if (!flow.active || !flow.schedule) return unschedule(flow.id);
      const key = `${flow.schedule.cron}\n${flow.schedule.timezone}`;
      if (jobs.get(flow.id)?.key === key) return;
      unschedule(flow.id);
      try {
        // protect: a run that takes longer than the interval is not started twice at once;
        // unref: a pending tick never holds the process open when the agent shuts down.
        // catch: croner does not await a tick, so a run that rejects would be an unhandled rejection.
        const job = new Cron(
          flow.schedule.cron,
          {
            timezone: flow.schedule.timezone,
            protect: true,
            unref: true,
            catch: (err) => deps.log.error({ flowId: flow.id, err }, 'flows: scheduled run failed'),
          },
          () => deps.fire(flow.id),
        );
        jobs.set(flow.id, { key, job });
      } catch (error) {
        deps.log.warn({ flowId: flow.id, err: (error as Error).message }, 'flows: schedule not started');
      }
    },
    remove: unschedule,
    scheduled(): number[] {
      return [...jobs.keys()];
    },
    stop() {
      for (const { job } of jobs.values()) job.stop();
      jobs.clear();
    },
  };
}
