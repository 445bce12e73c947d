import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type {
  CompanyFolioInput,
  Folio,
  FolioLine,
  TimelineLine,
  TimelineMove,
  FolioSettings,
  LineInput,
  LineKind,
  LineMove,
  Settlement,
  SettlementDecision,
} from './folios.types';

const DATE = (column: string) => `to_char(${column}, 'YYYY-MM-DD') AS ${column.replace(/.*\./, '')}`;
const LINE_COLUMNS = [
  'id',
  'hotel_id',
  'folio_id',
  'kind',
  'amount',
  'vat_rate',
  DATE('business_date'),
  'description',
  'posted_by',
  'posted_via',
  'source',
  'corrects_line_id',
  'created_at',
].join(', ');

const settingsRows = settingsTable<FolioSettings>('folio_settings');

export const folioSettingsRepository = {
  ...settingsRows,
  lock: (db: DbOrTrx, hotelId: string) => settingsRows.get(db, hotelId, { forUpdate: true }),
  /** The row; `forShare` holds it against a close until the transaction ends (a line never lands in a day closing). */
  async get(db: DbOrTrx, hotelId: string, options: { forShare?: boolean } = {}): Promise<FolioSettings> {
    const query = db('folio_settings')
      .select(db.raw(`hotel_id, ${DATE('closed_through')}, checkout_needs_settlement, updated_at`))
      .where({ hotel_id: hotelId })
      .first();
    if (options.forShare) query.forShare();
    return (await query) as FolioSettings;
  },
};

export const foliosRepository = {
  /** The booking's guest folio, made the first time it is asked for (concurrent first asks make one). */
  async guestFolio(db: DbOrTrx, hotelId: string, bookingId: string): Promise<Folio> {
    await db.raw(
      `INSERT INTO folios (hotel_id, booking_id, payer_kind) VALUES (?, ?, 'guest')
       ON CONFLICT (hotel_id, booking_id) WHERE payer_kind = 'guest' DO NOTHING`,
      [hotelId, bookingId],
    );
    return (await db('folios')
      .where({ hotel_id: hotelId, booking_id: bookingId, payer_kind: 'guest' })
      .first()) as Folio;
  },

  async insertCompany(db: DbOrTrx, hotelId: string, bookingId: string, payer: CompanyFolioInput, by: string | null) {
    const [row] = (await db('folios')
      .insert({ hotel_id: hotelId, booking_id: bookingId, payer_kind: 'company', ...payer, created_by: by })
      .returning('*')) as Folio[];
    return row;
  },

  async find(db: DbOrTrx, hotelId: string, folioId: string): Promise<Folio | undefined> {
    return (await db('folios').where({ hotel_id: hotelId, id: folioId }).first()) as Folio | undefined;
  },

  async ofBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<Folio[]> {
    return (await db('folios')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderByRaw("payer_kind = 'company', created_at, id")) as Folio[];
  },

  /** The booking's folios locked, so lines posted, moved and checked at check-out see each other in order. */
  async lockBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<void> {
    await db('folios').where({ hotel_id: hotelId, booking_id: bookingId }).forUpdate();
  },
};

export interface LineSum {
  kind: LineKind;
  count: number;
  amount: string;
  first_date: string;
  last_date: string;
  created_at: Date;
}

/** The lines of these kinds on any folio of the booking (`l`). */
function bookingLines(db: DbOrTrx, hotelId: string, bookingId: string, kinds: readonly LineKind[]) {
  return db('folio_lines as l')
    .join('folios as f', function joinFolio() {
      this.on('f.hotel_id', 'l.hotel_id').andOn('f.id', 'l.folio_id');
    })
    .where({ 'l.hotel_id': hotelId, 'f.booking_id': bookingId })
    .whereIn('l.kind', kinds);
}

export const linesRepository = {
  /** Posts a line once per source: undefined when the source was posted before (nothing written). */
  async insert(db: DbOrTrx, hotelId: string, folioId: string, line: LineInput & { business_date: string }) {
    const [row] = (await db('folio_lines')
      .insert({ hotel_id: hotelId, folio_id: folioId, ...line, posted_by: line.posted_by ?? null })
      .onConflict(['hotel_id', 'source'])
      .ignore()
      .returning('id')) as { id: string }[];
    return row && linesRepository.find(db, hotelId, row.id);
  },

  async bySource(db: DbOrTrx, hotelId: string, source: string): Promise<FolioLine | undefined> {
    return (await db('folio_lines').select(db.raw(LINE_COLUMNS)).where({ hotel_id: hotelId, source }).first()) as
      FolioLine | undefined;
  },

  /**
   * The lines whose source starts with `prefix` (a charge's lines: its first and its corrections; a stay's room nights
   * or tourist tax), on whatever folio, oldest first; the LIKE seeks them through `folio_lines_source_prefix_idx`.
   */
  async bySourcePrefix(db: DbOrTrx, hotelId: string, prefix: string): Promise<FolioLine[]> {
    return (await db('folio_lines')
      .select(db.raw(LINE_COLUMNS))
      .where({ hotel_id: hotelId })
      .whereRaw("source LIKE ? ESCAPE '\\'", [`${prefix.replace(/[\\%_]/g, '\\$&')}%`])
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as FolioLine[];
  },

  /** The lines correcting any of `ids` (a charge's lines corrected by hand included). */
  async correcting(db: DbOrTrx, hotelId: string, ids: string[]): Promise<FolioLine[]> {
    if (ids.length === 0) return [];
    return (await db('folio_lines')
      .select(db.raw(LINE_COLUMNS))
      .where({ hotel_id: hotelId })
      .whereIn('corrects_line_id', ids)) as FolioLine[];
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<FolioLine | undefined> {
    return (await db('folio_lines').select(db.raw(LINE_COLUMNS)).where({ hotel_id: hotelId, id }).first()) as
      FolioLine | undefined;
  },

  /** The latest `limit` lines of the booking's folios of these kinds, newest first (its timeline). */
  ofBookingKinds(db: DbOrTrx, hotelId: string, bookingId: string, kinds: readonly LineKind[], limit: number) {
    return bookingLines(db, hotelId, bookingId, kinds)
      .orderBy('l.created_at', 'desc')
      .limit(limit)
      .select(
        'l.kind',
        'l.amount',
        db.raw(DATE('l.business_date')),
        'l.description',
        'l.source',
        'l.posted_by',
        'l.created_at',
      ) as Promise<TimelineLine[]>;
  },

  /**
   * The latest `limit` moves of a line onto or off the booking's folios: the line (kind, amount), who moved it and
   * when, and the folios' payers and stays on either side. The booking's folios read first (folios_booking_idx), then
   * their moves by the folio indexes (migration 116), not every move of the hotel.
   */
  async movesOfBooking(db: DbOrTrx, hotelId: string, bookingId: string, limit: number): Promise<TimelineMove[]> {
    const folioIds = (await db('folios').where({ hotel_id: hotelId, booking_id: bookingId }).pluck('id')) as string[];
    if (folioIds.length === 0) return [];
    return (await db('folio_line_moves as m')
      .join('folio_lines as l', function line() {
        this.on('l.hotel_id', 'm.hotel_id').andOn('l.id', 'm.line_id');
      })
      .join('folios as a', function from() {
        this.on('a.hotel_id', 'm.hotel_id').andOn('a.id', 'm.from_folio_id');
      })
      .join('folios as b', function to() {
        this.on('b.hotel_id', 'm.hotel_id').andOn('b.id', 'm.to_folio_id');
      })
      .where('m.hotel_id', hotelId)
      .where((either) =>
        either
          .whereRaw('m.from_folio_id = ANY(?::uuid[])', [folioIds])
          .orWhereRaw('m.to_folio_id = ANY(?::uuid[])', [folioIds]),
      )
      .orderBy([
        { column: 'm.moved_at', order: 'desc' },
        { column: 'm.id', order: 'desc' },
      ])
      .limit(limit)
      .select(
        'l.kind',
        'l.amount',
        'm.moved_by',
        'm.moved_at',
        'a.booking_id as from_booking_id',
        'a.payer_kind as from_payer',
        'b.booking_id as to_booking_id',
        'b.payer_kind as to_payer',
      )) as TimelineMove[];
  },

  /** Per kind of these, the booking's lines summed: how many, the amount, the days, the last posting. */
  sumsOfBooking(db: DbOrTrx, hotelId: string, bookingId: string, kinds: readonly LineKind[]) {
    return bookingLines(db, hotelId, bookingId, kinds)
      .groupBy('l.kind')
      .select(
        'l.kind',
        db.raw('count(*)::int AS count'),
        db.raw('sum(l.amount)::text AS amount'),
        db.raw("to_char(min(l.business_date), 'YYYY-MM-DD') AS first_date"),
        db.raw("to_char(max(l.business_date), 'YYYY-MM-DD') AS last_date"),
        db.raw('max(l.created_at) AS created_at'),
      ) as Promise<LineSum[]>;
  },

  async ofFolios(db: DbOrTrx, hotelId: string, folioIds: string[]): Promise<FolioLine[]> {
    return (await db('folio_lines')
      .select(db.raw(LINE_COLUMNS))
      .where({ hotel_id: hotelId })
      .whereIn('folio_id', folioIds)
      .orderBy([{ column: 'business_date' }, { column: 'created_at' }, { column: 'id' }])) as FolioLine[];
  },

  /** These lines and every line they correct, transitively (a correction of a correction of a payment...). */
  async withCorrected(db: DbOrTrx, hotelId: string, ids: string[]): Promise<FolioLine[]> {
    return (await db('folio_lines')
      .select(db.raw(LINE_COLUMNS))
      .where({ hotel_id: hotelId })
      .whereRaw(
        `id IN (WITH RECURSIVE chain AS (
           SELECT id, corrects_line_id FROM folio_lines WHERE hotel_id = ? AND id = ANY(?::uuid[])
           UNION
           SELECT l.id, l.corrects_line_id FROM folio_lines l JOIN chain c ON l.id = c.corrects_line_id AND l.hotel_id = ?
         ) SELECT id FROM chain)`,
        // As one array literal: knex would spread an array binding into a list.
        [hotelId, `{${ids.join(',')}}`, hotelId],
      )) as FolioLine[];
  },

  async sum(db: DbOrTrx, hotelId: string, folioId: string): Promise<string> {
    const row = (await db('folio_lines')
      .where({ hotel_id: hotelId, folio_id: folioId })
      .select(db.raw('coalesce(sum(amount), 0)::numeric(14, 2)::text AS total'))
      .first()) as { total: string };
    return row.total;
  },

  /** Moves a line to another folio and records the move. */
  async move(db: DbOrTrx, hotelId: string, line: FolioLine, toFolioId: string, by: string | null): Promise<LineMove> {
    await db('folio_lines').where({ hotel_id: hotelId, id: line.id }).update({ folio_id: toFolioId });
    const [move] = (await db('folio_line_moves')
      .insert({
        hotel_id: hotelId,
        line_id: line.id,
        from_folio_id: line.folio_id,
        to_folio_id: toFolioId,
        moved_by: by,
      })
      .returning(['id', 'line_id', 'from_folio_id', 'to_folio_id', 'moved_by', 'moved_at'])) as LineMove[];
    return move;
  },

  async moves(db: DbOrTrx, hotelId: string, lineIds: string[]): Promise<LineMove[]> {
    return (await db('folio_line_moves')
      .select('id', 'line_id', 'from_folio_id', 'to_folio_id', 'moved_by', 'moved_at')
      .where({ hotel_id: hotelId })
      .whereIn('line_id', lineIds)
      .orderBy([{ column: 'moved_at' }, { column: 'id' }])) as LineMove[];
  },
};

export const settlementsRepository = {
  async insert(
    db: DbOrTrx,
    hotelId: string,
    bookingId: string,
    decision: { decision: SettlementDecision; balance: string; note: string | null; decided_by: string | null },
  ): Promise<Settlement> {
    const [row] = (await db('folio_settlements')
      .insert({ hotel_id: hotelId, booking_id: bookingId, ...decision })
      .returning(['id', 'booking_id', 'decision', 'balance', 'note', 'decided_by', 'decided_at'])) as Settlement[];
    return row;
  },

  async ofBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<Settlement[]> {
    return (await db('folio_settlements')
      .select('id', 'booking_id', 'decision', 'balance', 'note', 'decided_by', 'decided_at')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy('decided_at')) as Settlement[];
  },

  /** The booking's latest `limit` decisions, for its timeline. */
  async latestOfBooking(db: DbOrTrx, hotelId: string, bookingId: string, limit: number): Promise<Settlement[]> {
    return (await db('folio_settlements')
      .select('id', 'booking_id', 'decision', 'balance', 'note', 'decided_by', 'decided_at')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy([
        { column: 'decided_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)) as Settlement[];
  },
};
