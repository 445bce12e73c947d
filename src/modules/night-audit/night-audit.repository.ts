import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import { parseMoney } from '../../platform/money';
import type { AuditRun, AuditSettings, AuditSnapshot, DayFacts, InHouseStay, RunTrigger } from './night-audit.types';

const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD') AS ${column.replace(/.*\./, '')}`;

export const auditSettingsRepository = settingsTable<AuditSettings>('night_audit_settings');

const RUN_COLUMNS = [
  'hotel_id',
  day('business_date'),
  'status',
  'trigger',
  'workflow_id',
  'error',
  'report_error',
  'started_at',
  'finished_at',
];

/** How long a run may hold its day: longer than a day's steps with all their retries take. */
const RUN_LEASE = '2 hours';

export const runsRepository = {
  async recent(db: DbOrTrx, hotelId: string, limit: number): Promise<AuditRun[]> {
    return db('night_audit_runs')
      .select(db.raw(RUN_COLUMNS.join(', ')))
      .where({ hotel_id: hotelId })
      .orderBy('business_date', 'desc')
      .limit(limit);
  },

  async find(db: DbOrTrx, hotelId: string, date: string): Promise<AuditRun | undefined> {
    return db('night_audit_runs')
      .select(db.raw(RUN_COLUMNS.join(', ')))
      .where({ hotel_id: hotelId, business_date: date })
      .first();
  },

  /** A run going on: `running` and younger than a run can last (an older one's workflow is gone: it counts as failed). */
  async running(db: DbOrTrx, hotelId: string): Promise<AuditRun | undefined> {
    return db('night_audit_runs')
      .select(db.raw(RUN_COLUMNS.join(', ')))
      .where({ hotel_id: hotelId, status: 'running' })
      .whereRaw(`started_at > now() - interval '${RUN_LEASE}'`)
      .first();
  },

  /**
   * The day's run taken on by this workflow: a new one, a failed one tried again (its steps done kept), one whose
   * lease ran out, or its own (a retried activity). False when another workflow runs it or ran it to the end.
   */
  async claim(db: DbOrTrx, hotelId: string, date: string, trigger: RunTrigger, workflowId: string): Promise<boolean> {
    const claimed = await db.raw(
      `INSERT INTO night_audit_runs (hotel_id, business_date, status, trigger, workflow_id)
       VALUES (?, ?, 'running', ?, ?)
       ON CONFLICT (hotel_id, business_date) DO UPDATE
         SET status = 'running', trigger = EXCLUDED.trigger, workflow_id = EXCLUDED.workflow_id, error = NULL,
             started_at = now(), finished_at = NULL
         WHERE night_audit_runs.status = 'failed' OR night_audit_runs.workflow_id = EXCLUDED.workflow_id
            OR (night_audit_runs.status = 'running' AND night_audit_runs.started_at <= now() - interval '${RUN_LEASE}')
       RETURNING hotel_id`,
      [hotelId, date, trigger, workflowId],
    );
    return (claimed.rows as unknown[]).length > 0;
  },

  /** The daily report's failures of the day's run (null: every recipient reached). */
  async noteReport(db: DbOrTrx, hotelId: string, date: string, failures: string | null): Promise<void> {
    await db('night_audit_runs').where({ hotel_id: hotelId, business_date: date }).update({ report_error: failures });
  },

  async completedSteps(db: DbOrTrx, hotelId: string, date: string): Promise<string[]> {
    const row = await db('night_audit_runs').where({ hotel_id: hotelId, business_date: date }).first('completed_steps');
    return (row?.completed_steps as string[] | undefined) ?? [];
  },

  async complete(db: DbOrTrx, hotelId: string, date: string, step: string): Promise<void> {
    await db('night_audit_runs')
      .where({ hotel_id: hotelId, business_date: date })
      .whereRaw('NOT (? = ANY (completed_steps))', [step])
      .update({ completed_steps: db.raw('array_append(completed_steps, ?)', [step]) });
  },

  /** This workflow's run of the day (any day it runs, when none is named) recorded done, or failed with `error`. */
  async finish(db: DbOrTrx, hotelId: string, date: string | null, workflowId: string, error: string | null) {
    await db('night_audit_runs')
      .where({ hotel_id: hotelId, workflow_id: workflowId, status: 'running' })
      .modify((query) => (date === null ? query : query.where({ business_date: date })))
      .update({ status: error === null ? 'succeeded' : 'failed', error, finished_at: db.fn.now() });
  },
};

const SNAPSHOT_COLUMNS = [
  'hotel_id',
  day('business_date'),
  'rooms',
  'out_of_order',
  'available',
  'sold',
  'occupancy',
  'room_revenue',
  'adr',
  'revpar',
  'arrivals',
  'departures',
  'no_shows',
  'tourist_tax',
  'created_at',
];

export const snapshotsRepository = {
  /** True when written now; a day's snapshot, once written, stays as it is. */
  async insert(db: DbOrTrx, hotelId: string, snapshot: Omit<AuditSnapshot, 'hotel_id'>): Promise<boolean> {
    const rows = await db('night_audit_snapshots')
      .insert({ ...snapshot, hotel_id: hotelId })
      .onConflict(['hotel_id', 'business_date'])
      .ignore()
      .returning('hotel_id');
    return rows.length > 0;
  },

  async find(db: DbOrTrx, hotelId: string, date: string): Promise<AuditSnapshot | undefined> {
    return db('night_audit_snapshots')
      .select(db.raw(SNAPSHOT_COLUMNS.join(', ')))
      .where({ hotel_id: hotelId, business_date: date })
      .first();
  },

  async exists(db: DbOrTrx, hotelId: string, date: string): Promise<boolean> {
    return (
      (await db('night_audit_snapshots').where({ hotel_id: hotelId, business_date: date }).first('hotel_id')) !==
      undefined
    );
  },
};

/**
 * What the audit reads of the stays, rooms and folio lines (read only: bookings, rooms and folios write them). A
 * stay is in house on a night when it is checked in and the night is one of its own (an hourly stay: the day it began,
 * on the hotel's clock).
 */
export const dayRepository = {
  async inHouse(db: DbOrTrx, hotelId: string, date: string, timeZone: string): Promise<InHouseStay[]> {
    return db('bookings')
      .where({ hotel_id: hotelId, status: 'checked_in' })
      .where((nights) =>
        nights
          .where((nightly) =>
            nightly.where('kind', 'nightly').where('check_in', '<=', date).where('check_out', '>', date),
          )
          .orWhere((hourly) =>
            hourly.where('kind', 'hourly').whereRaw('(start_at AT TIME ZONE ?)::date = ?::date', [timeZone, date]),
          ),
      )
      .orderBy('id')
      .select(
        'id as booking_id',
        // The room of the stay's segment that night (a moved stay's room changes), its own room if it has none.
        db.raw(
          `COALESCE((SELECT s.room_id FROM booking_rooms s WHERE s.hotel_id = bookings.hotel_id
             AND s.booking_id = bookings.id AND s.during @> ((?::date + 1)::timestamp AT TIME ZONE ?) LIMIT 1),
             bookings.room_id) AS room_id`,
          [date, timeZone],
        ),
        db.raw("kind = 'nightly' AND check_out > ?::date + 1 AS stays_on", [date]),
      );
  },

  async facts(db: DbOrTrx, hotelId: string, date: string): Promise<DayFacts> {
    const [lines, stays] = await Promise.all([
      db('folio_lines')
        .where({ hotel_id: hotelId, business_date: date, kind: 'tourist_tax' })
        .first(db.raw('COALESCE(sum(amount), 0)::text AS tourist_tax')),
      db('bookings')
        .where({ hotel_id: hotelId, kind: 'nightly' })
        .where((dated) => dated.where('check_in', date).orWhere('check_out', date))
        .first(
          db.raw("count(*) FILTER (WHERE check_in = ? AND status IN ('checked_in', 'checked_out'))::int AS arrivals", [
            date,
          ]),
          db.raw(
            "count(*) FILTER (WHERE check_out = ? AND status IN ('checked_in', 'checked_out'))::int AS departures",
            [date],
          ),
          // The day's no-shows: cancelled as such, or still awaited at the audit (the hotel cancels them later, or
          // never): the snapshot is written once, at the audit.
          db.raw(
            `count(*) FILTER (WHERE check_in = ? AND (status = 'confirmed'
               OR (status = 'cancelled' AND cancel_reason = 'no_show')))::int AS no_shows`,
            [date],
          ),
        ),
    ]);
    return {
      touristTax: parseMoney(lines.tourist_tax),
      arrivals: stays.arrivals,
      departures: stays.departures,
      noShows: stays.no_shows,
    };
  },
};
