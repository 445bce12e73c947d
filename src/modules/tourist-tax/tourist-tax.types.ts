import type { VatRate } from '../../integrations/atol';

/**
 * Who the law exempts from the tourist tax (Tax Code art. 418.4), by code, with the name the declaration and the desk
 * use. `other_municipal`: a category the municipality added, described in the exemption itself.
 */
export const EXEMPTION_CATEGORIES = {
  hero: 'Герои Советского Союза, Герои Российской Федерации, полные кавалеры ордена Славы',
  labour_hero: 'Герои Социалистического Труда, Герои Труда Российской Федерации, полные кавалеры ордена Трудовой Славы',
  war_veteran: 'Участники и инвалиды Великой Отечественной войны',
  combat_veteran: 'Ветераны и инвалиды боевых действий',
  disabled_1_2: 'Инвалиды I и II групп и сопровождающие их лица',
  disabled_child: 'Дети-инвалиды и сопровождающие их лица',
  svo_participant: 'Участники специальной военной операции',
  medical_treatment: 'Лица, прибывшие на лечение (если это предусмотрено муниципалитетом)',
  student: 'Студенты очной формы обучения до 24 лет, обучающиеся вне места постоянного проживания',
  labour_contract: 'Лица, проживающие в связи с работой по трудовому договору',
  other_municipal: 'Иная категория, установленная муниципалитетом',
} as const;

export type ExemptionCategory = keyof typeof EXEMPTION_CATEGORIES;
export const EXEMPTION_CODES = Object.keys(EXEMPTION_CATEGORIES) as ExemptionCategory[];

/** A period of the year with the municipality's own rate (nights `from`..`to`, inclusive). */
export interface TaxSeason {
  from: string;
  to: string;
  /** Percent, two decimals at most ("1.5"). */
  rate: string;
}

/** What the tax of a night is computed with. */
export interface TaxSettings {
  enabled: boolean;
  /** The rate of the nights no season covers. */
  rate: string;
  seasons: TaxSeason[];
  /** The VAT the lodging prices include (`none` or `0`: the price is the base). */
  vat: VatRate;
}

/** A night as the tax sees it: its date and the price of its lodging (VAT included when the hotel charges it). */
export interface PricedNight {
  date: string;
  price: string;
}

/** The tax of one night: its base (the price without VAT), the rate applied and the tax, or why none. */
export interface NightTax {
  date: string;
  base: string;
  rate: string;
  tax: string;
  /** Why the night bears no tax: the hotel does not charge it, the night is before 2025, or the guest is exempt. */
  exempt: ExemptionCategory | null;
  /** The stay's tax came below 100 roubles a taxable night: each such night bears the minimum. */
  minimum: boolean;
}

export interface StayTax {
  per_night: NightTax[];
  total: string;
}

/** An exemption as the desk records it: the category, the document, and the nights it covers. */
export interface ExemptionInput {
  category: ExemptionCategory;
  description?: string | null;
  document_kind: string;
  document_number: string;
  document_date: string;
  /** The last night the document covers (none: every night of the stay from the document's date). */
  valid_until?: string | null;
}
