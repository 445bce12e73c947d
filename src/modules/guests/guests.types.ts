import type { Role } from '../../platform/http/roles';

/** The passport fields: plaintext on the wire (for roles that may see documents), envelopes in the database. */
export const PASSPORT_FIELDS = [
  'passport_series',
  'passport_number',
  'passport_issued_by',
  'passport_issue_date',
] as const;
export type PassportField = (typeof PASSPORT_FIELDS)[number];
export type PassportValues = Record<PassportField, string | null>;

/** A guest as stored: passport fields only as AES-256-GCM envelopes naming their key. */
/** What a guest record holds beside the person and the documents: notes, the blacklist, and when it changed. */
interface GuestStanding {
  notes: string;
  is_blacklisted: boolean;
  blacklist_reason: string | null;
  blacklisted_at: Date | null;
  blacklisted_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface GuestRow extends GuestStanding {
  id: string;
  hotel_id: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  /** "last first middle", lower-cased, ё as е: what name search matches. */
  search_name: string;
  phone: string | null;
  /** The phone's normal form (E.164, platform/phone), for search and matching; null when it does not parse. */
  phone_normalized: string | null;
  /** Lower-cased. */
  email: string | null;
  /** `YYYY-MM-DD` */
  birth_date: string | null;
  citizenship: string | null;
  passport_series_encrypted: string | null;
  passport_number_encrypted: string | null;
  passport_issued_by_encrypted: string | null;
  passport_issue_date_encrypted: string | null;
  /** The key every envelope of the row is encrypted with; null without passport data. */
  passport_key_id: string | null;
}

/** A guest on the wire. Passport fields are null for roles that may not see documents; `passport_on_file` tells. */
export interface Guest extends PassportValues, GuestStanding {
  id: string;
  hotel_id: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  phone: string | null;
  email: string | null;
  birth_date: string | null;
  citizenship: string | null;
  passport_on_file: boolean;
}

/** What creates a guest (as staff or a booking send it); `null` or `''` leaves an optional field empty. */
export interface GuestInput extends Partial<PassportValues> {
  last_name: string;
  first_name: string;
  middle_name?: string | null;
  phone?: string | null;
  email?: string | null;
  /** `YYYY-MM-DD`, in the past. */
  birth_date?: string | null;
  citizenship?: string | null;
  notes?: string;
}

/** A partial update; passport fields set to null are erased. */
export type GuestPatch = Partial<GuestInput>;

export interface GuestFilter {
  /** Name parts, phone digits or e-mail. */
  q?: string;
  blacklisted?: boolean;
}

export interface BlacklistInput {
  is_blacklisted: boolean;
  /** Required when blacklisting. */
  reason?: string | null;
}

/** Who calls: the role decides whether passport fields are shown; the id is recorded on blacklisting. */
export interface Viewer {
  userId: string | null;
  role: Role;
}

/** What `findGuestMatch` compares: the same phone (normal form) or e-mail, and the same last name. */
export interface GuestMatchCriteria {
  phone?: string | null;
  email?: string | null;
  last_name: string;
  first_name: string;
}
