import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const { EventType } = temporal.api.enums.v1;

/** The versioning search attribute `patched()` upserts: exempt from Temporal Cloud's action count. */
const CHANGE_VERSION = 'TemporalChangeVersion';

/** One activity of a history: its type, and what its last attempt returned (undefined when it did not complete). */
export interface ActivityRun {
  type: string;
  attempts: number;
  result: unknown;
}

/** What a workflow history costs in Temporal Cloud actions, by kind, with its raw event counts and its activities. */
export interface HistoryActions {
  actions: number;
  byKind: Record<string, number>;
  eventCounts: Record<string, number>;
  activities: ActivityRun[];
}

const num = (value: unknown) => Number(value ?? 0);
const eventName = (event: HistoryEvent) =>
  (EventType[event.eventType ?? 0] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');

function decoded(payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown {
  const [payload] = payloads?.payloads ?? [];
  return payload ? defaultPayloadConverter.fromPayload(payload) : undefined;
}

/** The activities of a history in the order they were scheduled, with their attempts and results. */
function activitiesOf(events: HistoryEvent[]): ActivityRun[] {
  const byScheduledId = new Map<number, ActivityRun>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled)
      byScheduledId.set(num(event.eventId), {
        type: scheduled.activityType?.name ?? '?',
        attempts: 0,
        result: undefined,
      });
    const started = event.activityTaskStartedEventAttributes;
    const startedRun = started && byScheduledId.get(num(started.scheduledEventId));
    if (startedRun) startedRun.attempts = started.attempt ?? 1;
    const completed = event.activityTaskCompletedEventAttributes;
    const completedRun = completed && byScheduledId.get(num(completed.scheduledEventId));
    if (completedRun) completedRun.result = decoded(completed.result);
  }
  return [...byScheduledId.values()];
}

/**
 * Counts a history's billable actions as Temporal Cloud documents them (docs.temporal.io/cloud/actions, and the
 * server's own `action` metric, which follows the same rules):
 * - a workflow started: 1; a signal received: 1, but a signal-with-start that started the workflow is 1 in all
 *   (its signal is the event right after the start);
 * - an activity scheduled: 1, and 1 per retry (the started event's `attempt` - 1); a timer started: 1;
 * - markers (patches, local activities, side effects): 1 per workflow task that recorded any, plus the local
 *   activities' retries the task completion reports;
 * - a search-attribute upsert: 1, unless it only sets `TemporalChangeVersion` (what `patched()` upserts: exempt);
 * - a child workflow: 2; an accepted update, a workflow options update, a Nexus operation scheduled or cancelled: 1.
 * Queries and activity heartbeats are billed too but leave no event: the bench's workflows make neither.
 */
export function countActions(history: History): HistoryActions {
  const events = history.events ?? [];
  const byKind: Record<string, number> = {};
  const eventCounts: Record<string, number> = {};
  const add = (kind: string, count = 1) => {
    if (count > 0) byKind[kind] = (byKind[kind] ?? 0) + count;
  };
  const markerTasks = new Set<number>();
  const startedBySignal =
    events[0]?.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED &&
    events[1]?.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED;
  events.forEach((event, index) => {
    const name = eventName(event);
    eventCounts[name] = (eventCounts[name] ?? 0) + 1;
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        return add(startedBySignal ? 'signal-with-start' : 'workflow started');
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        return add('signal', startedBySignal && index === 1 ? 0 : 1);
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        return add('activity');
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        return add('activity retry', (event.activityTaskStartedEventAttributes?.attempt ?? 1) - 1);
      case EventType.EVENT_TYPE_TIMER_STARTED:
        return add('timer');
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        markerTasks.add(num(event.markerRecordedEventAttributes?.workflowTaskCompletedEventId));
        return;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        return add(
          'local activity retry',
          num(event.workflowTaskCompletedEventAttributes?.meteringMetadata?.nonfirstLocalActivityExecutionAttempts),
        );
      case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: {
        const fields = Object.keys(
          event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {},
        );
        return add('search-attribute upsert', fields.some((field) => field !== CHANGE_VERSION) ? 1 : 0);
      }
      case EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        return add('child workflow', 2);
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
        return add('update');
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED:
        return add('options update');
      case EventType.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED:
      case EventType.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED:
        return add('nexus');
    }
  });
  add('markers (per workflow task)', markerTasks.size);
  const actions = Object.values(byKind).reduce((sum, count) => sum + count, 0);
  return { actions, byKind, eventCounts, activities: activitiesOf(events) };
}

/** The sum of several histories' counts (a lifecycle's other workflows). */
export function sumActions(counts: HistoryActions[]): HistoryActions {
  const merge = (pick: (count: HistoryActions) => Record<string, number>) => {
    const total: Record<string, number> = {};
    for (const count of counts)
      for (const [key, value] of Object.entries(pick(count))) total[key] = (total[key] ?? 0) + value;
    return total;
  };
  return {
    actions: counts.reduce((sum, count) => sum + count.actions, 0),
    byKind: merge((count) => count.byKind),
    eventCounts: merge((count) => count.eventCounts),
    activities: counts.flatMap((count) => count.activities),
  };
}
