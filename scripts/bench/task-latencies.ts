import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type Timestamp = temporal.api.history.v1.IHistoryEvent['eventTime'];

const { EventType } = temporal.api.enums.v1;

/** What one workflow's history tells of its tasks' waits in the task queue. */
export interface TaskLatencies {
  /** Workflow task started - scheduled, ms, for every workflow task that started. */
  workflowTasks: number[];
  /** The first of them (on the normal queue: no worker has the workflow cached yet), when it started. */
  firstWorkflowTask?: number;
  /** Activity started - scheduled, ms, for the activities whose first attempt is the one recorded. */
  activities: number[];
  /** When the last task (of either kind) started, ms since the epoch; 0 when none did. */
  lastStartedAt: number;
}

const msOf = (time: Timestamp) => (time ? Number(time.seconds ?? 0) * 1000 + (time.nanos ?? 0) / 1e6 : 0);

/**
 * Schedule-to-start of each task from a history's event times (as the server recorded them: the time a task waited
 * for a worker's poll, on the normal or the sticky queue). An activity retried waits its backoff too, so only first
 * attempts count.
 */
export function taskLatencies(history: History): TaskLatencies {
  const scheduledAt = new Map<number, number>();
  const result: TaskLatencies = { workflowTasks: [], activities: [], lastStartedAt: 0 };
  for (const event of history.events ?? []) {
    const at = msOf(event.eventTime);
    const type = event.eventType;
    if (
      type === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED ||
      type === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
    ) {
      scheduledAt.set(Number(event.eventId), at);
    }
    const workflowTask = event.workflowTaskStartedEventAttributes;
    const activity = event.activityTaskStartedEventAttributes;
    const scheduledId = Number(workflowTask?.scheduledEventId ?? activity?.scheduledEventId ?? 0);
    const scheduled = scheduledAt.get(scheduledId);
    if (scheduled === undefined) continue;
    if (workflowTask) {
      result.firstWorkflowTask ??= at - scheduled;
      result.workflowTasks.push(at - scheduled);
    } else if ((activity?.attempt ?? 1) === 1) result.activities.push(at - scheduled);
    result.lastStartedAt = Math.max(result.lastStartedAt, at);
  }
  return result;
}

/** Each activity of a history, in order: its name and the time from its scheduling to its completion, ms. */
export function activityTimes(history: History): [string, number][] {
  const scheduled = new Map<number, { name: string; at: number }>();
  const times: [string, number][] = [];
  for (const event of history.events ?? []) {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (attributes)
      scheduled.set(Number(event.eventId), { name: attributes.activityType?.name ?? '?', at: msOf(event.eventTime) });
    const completed = event.activityTaskCompletedEventAttributes;
    const started = completed && scheduled.get(Number(completed.scheduledEventId ?? 0));
    if (started) times.push([started.name, msOf(event.eventTime) - started.at]);
  }
  return times;
}
