/** The hotel's retention setting: how many days a guest's personal data is kept after the last stay. */
export interface RetentionSettingsRow {
  hotel_id: string;
  guest_data_days: number;
  updated_at: Date;
}

export type RetentionSettingsChanges = Partial<Pick<RetentionSettingsRow, 'guest_data_days'>>;

/** What an erasure on request answers. */
export interface ErasureReport {
  guest_id: string;
  erased_at: Date;
  erased: { place: string; rows: number }[];
  kept: { what: string; why: string }[];
}
