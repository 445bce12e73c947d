import { readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { type temporal } from '@temporalio/proto';
import { nothingToDo } from '../../scripts/bench/lifecycle-actions';
import { countActions } from '../../scripts/bench/temporal-actions';

/** The bench's count of Temporal Cloud actions (`BENCH=lifecycle-actions npm run bench`), on histories it can check. */

const base64 = (text: string) => Buffer.from(text).toString('base64');

const recorded = (name: string) =>
  historyFromJSON(
    JSON.parse(readFileSync(path.join(__dirname, '../fixtures/histories', `${name}.json`), 'utf8')),
  ) as temporal.api.history.v1.IHistory;

describe('countActions', () => {
  it('a recorded stay: the start, its signals and activities, one action per workflow task with markers', () => {
    const counted = countActions(recorded('booking-checked-out'));
    // Three patch markers in two workflow tasks; their TemporalChangeVersion upserts are exempt.
    expect(counted.eventCounts).toMatchObject({ MARKER_RECORDED: 3, UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: 3 });
    expect(counted.byKind).toEqual({
      'workflow started': 1,
      signal: 2,
      activity: 8,
      'markers (per workflow task)': 2,
    });
    expect(counted.actions).toBe(13);
    expect(counted.activities.map((run) => [run.type, run.result, nothingToDo(run)])).toEqual([
      ['announceBooking', 1, false],
      ['sendGuestBookingEmail', 'not_for_this_booking', true],
      ['announceBooking', 0, true],
      ['pushStayToTv', 'skipped', true],
      ['announceBooking', 0, true],
      ['pushStayToTv', 'skipped', true],
      ['accrueStayPoints', 'no_programme', true],
      ['reviewInvitationDelay', null, true],
    ]);
  });

  it('a signal-with-start is one action; retries, other upserts, timers and child workflows count', () => {
    // In the JSON form of Temporal's tools, as the recorded histories are.
    // Every event carries its attributes, named after its type (`TIMER_STARTED`: `timerStartedEventAttributes`).
    const attributesOf = (type: string) =>
      `${type.toLowerCase().replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase())}EventAttributes`;
    const event = (eventId: number, type: string, attributes: object = {}) => ({
      eventId: String(eventId),
      eventType: `EVENT_TYPE_${type}`,
      [attributesOf(type)]: {},
      ...attributes,
    });
    const upsert = (field: string) => ({
      upsertWorkflowSearchAttributesEventAttributes: {
        searchAttributes: {
          indexedFields: { [field]: { metadata: { encoding: base64('json/plain') }, data: base64('"x"') } },
        },
      },
    });
    const history = historyFromJSON({
      events: [
        event(1, 'WORKFLOW_EXECUTION_STARTED'),
        event(2, 'WORKFLOW_EXECUTION_SIGNALED'),
        event(3, 'WORKFLOW_TASK_COMPLETED'),
        event(4, 'ACTIVITY_TASK_SCHEDULED', { activityTaskScheduledEventAttributes: { activityType: { name: 'a' } } }),
        event(5, 'ACTIVITY_TASK_STARTED', {
          activityTaskStartedEventAttributes: { scheduledEventId: '4', attempt: 3 },
        }),
        event(6, 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', upsert('HotelSlug')),
        event(7, 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', upsert('TemporalChangeVersion')),
        event(8, 'TIMER_STARTED'),
        event(9, 'START_CHILD_WORKFLOW_EXECUTION_INITIATED'),
        event(10, 'WORKFLOW_EXECUTION_SIGNALED'),
      ],
    }) as temporal.api.history.v1.IHistory;
    const counted = countActions(history);
    expect(counted.byKind).toEqual({
      'signal-with-start': 1,
      signal: 1,
      activity: 1,
      'activity retry': 2,
      'search-attribute upsert': 1,
      timer: 1,
      'child workflow': 2,
    });
    expect(counted.actions).toBe(9);
    expect(counted.activities).toEqual([{ type: 'a', attempts: 3, result: undefined }]);
  });
});
