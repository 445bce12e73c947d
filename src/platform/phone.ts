import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * Phones: one rule for every phone the service stores, matches or sends.
 *
 * What a person typed is kept as typed, for display. Beside it, the one normal form is E.164 (`+79005550011`): the
 * number parsed with libphonenumber-js, the hotel's country as the region of a number typed without its country code
 * (`8 (900) 555-00-11`, `900 555-00-11`), and kept only when it is a possible number of its country. That form is
 * what is matched (guest de-duplication, the blacklist, the widget's look-up) and what providers get, each in the
 * shape it documents (`phoneDigits` for YooKassa). A text that does not parse to a possible number has no normal
 * form: it is kept as typed, never matched, and never sent to a provider.
 */

/**
 * The hotel's country, as the region of numbers typed without a country code. A hotel records no country of its own;
 * the service is built for Russian hotels (54-FZ receipts, YooKassa, ATOL, roubles by default), so it is Russia for
 * every hotel. A number typed with `+` and its country code is read as such whatever this region is.
 */
export const HOTEL_PHONE_REGION: CountryCode = 'RU';

/** The E.164 form of a typed phone (`+79005550011`), or null when it cannot be read as a possible phone number. */
export function normalizePhone(
  typed: string | null | undefined,
  region: CountryCode = HOTEL_PHONE_REGION,
): string | null {
  if (!typed) return null;
  const parsed = parsePhoneNumberFromString(typed, { defaultCountry: region, extract: false });
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * The digits a search for `typed` looks for among phones kept as typed: a whole number's national digits, which every
 * way of typing it contains (`+7 900…`, `8 900…`, `900…`), else the digits as typed (a part of a number).
 */
export function phoneSearchDigits(typed: string, region: CountryCode = HOTEL_PHONE_REGION): string {
  const parsed = parsePhoneNumberFromString(typed, { defaultCountry: region, extract: false });
  return parsed?.isPossible() ? parsed.nationalNumber : typed.replace(/\D/g, '');
}

/**
 * The ITU-T E.164 digits without `+` (`79005550011`, at most 15): YooKassa's receipt `customer.phone`. Null when the
 * typed phone has no normal form.
 */
export function phoneDigits(typed: string | null | undefined, region: CountryCode = HOTEL_PHONE_REGION): string | null {
  return normalizePhone(typed, region)?.slice(1) ?? null;
}
