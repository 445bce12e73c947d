import type { Knex } from 'knex';

/**
 * A booking's timeline reads the moves of a line onto or off its folios (docs/decisions/timeline.md): by the folios'
 * ids, hotel first, each side by its own index, instead of a scan of the hotel's moves.
 */
const INDEXES = [
  ['folio_line_moves_from_idx', 'folio_line_moves (hotel_id, from_folio_id)'],
  ['folio_line_moves_to_idx', 'folio_line_moves (hotel_id, to_folio_id)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, on] of INDEXES) await knex.raw(`CREATE INDEX ${name} ON ${on}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`DROP INDEX ${name}`);
}
