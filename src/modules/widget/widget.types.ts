/** An extra a guest may ask for in the widget (breakfast, transfer…): shown with its price, recorded on the booking. */
export interface WidgetService {
  code: string;
  name: string;
  price: string;
  description: string;
}

export interface WidgetSettings {
  hotel_id: string;
  is_enabled: boolean;
  services: WidgetService[];
  allowed_origins: string[];
  /** The version of the personal-data consent text the widget shows; recorded with each submission. */
  consent_text_version: string;
  updated_at: Date;
}

export type WidgetSettingsChanges = Partial<
  Pick<WidgetSettings, 'is_enabled' | 'services' | 'allowed_origins' | 'consent_text_version'>
>;

/** What a guest submits from the widget; a price sent along is never read. */
export interface WidgetBookingInput {
  category_id: string;
  check_in?: string;
  check_out?: string;
  start_at?: Date;
  end_at?: Date;
  guests_count: number;
  guest_last_name: string;
  guest_first_name: string;
  guest_middle_name?: string;
  guest_phone: string;
  guest_email?: string;
  services: string[];
  comment?: string;
  return_url?: string;
  /** The consent text's version the guest was shown (optional; when sent, it must be the hotel's current one). */
  consent_version?: string;
  /** The split stay offered (the nights of each room), to book in the rooms the offer has for them now. */
  split?: { from: string; to: string }[];
}
