import type { Knex } from 'knex';
import { ERASED, overwritten, type ErasurePlace } from '../../platform/personal-data';

const erasedProfile = (trx: Knex.Transaction) => ({
  last_name: ERASED,
  first_name: ERASED,
  middle_name: null,
  search_name: ERASED,
  phone: null,
  phone_normalized: null,
  email: null,
  birth_date: null,
  citizenship: null,
  passport_series_encrypted: null,
  passport_number_encrypted: null,
  passport_issued_by_encrypted: null,
  passport_issue_date_encrypted: null,
  passport_key_id: null,
  notes: '',
  is_blacklisted: false,
  blacklist_reason: null,
  blacklisted_at: null,
  blacklisted_by: null,
  erased_at: trx.fn.now(),
  updated_at: trx.fn.now(),
});

/** The profile itself: every personal field emptied or marked, the blacklist mark with it. */
export const guestsPersonalData: readonly ErasurePlace[] = [overwritten('guests', 'guests', 'profile', erasedProfile)];
