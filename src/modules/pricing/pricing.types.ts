export const MEAL_PLANS = ['none', 'breakfast', 'half_board', 'full_board', 'all_inclusive'] as const;

/** The most dates one request may set an override for. */
export const MAX_OVERRIDE_DAYS = 366;

export interface Tariff {
  id: string;
  hotel_id: string;
  name: string;
  description: string;
  adjustment_type: 'percent' | 'fixed';
  adjustment_value: string;
  min_nights: number;
  refundable: boolean;
  meals: (typeof MEAL_PLANS)[number];
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export type TariffInput = Partial<Omit<Tariff, 'id' | 'hotel_id' | 'created_at' | 'updated_at'>>;

export interface PeriodCategoryPrice {
  category_id: string;
  price: string | null;
  hourly_price: string | null;
}

export interface RatePeriod {
  id: string;
  hotel_id: string;
  name: string;
  date_from: string;
  date_to: string;
  prices: PeriodCategoryPrice[];
  created_at: Date;
  updated_at: Date;
}

export interface RatePeriodInput {
  name?: string;
  date_from?: string;
  date_to?: string;
  prices?: PeriodCategoryPrice[];
}

export interface RateOverride {
  id: string;
  hotel_id: string;
  category_id: string;
  date: string;
  price: string | null;
  hourly_price: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface OverrideInput {
  category_id: string;
  date?: string;
  date_from?: string;
  date_to?: string;
  price?: string | null;
  hourly_price?: string | null;
}

export interface DateWindow {
  from?: string;
  to?: string;
  category_id?: string;
}
