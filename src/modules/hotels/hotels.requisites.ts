import { BusinessRuleError } from '../../platform/errors';

/** The hotel's requisites as a seller: what its invoices carry (docs/decisions/invoices.md). */
export interface HotelRequisites {
  legal_name: string | null;
  inn: string | null;
  kpp: string | null;
  legal_address: string | null;
  bank_name: string | null;
  bik: string | null;
  settlement_account: string | null;
  correspondent_account: string | null;
}

export const REQUISITE_FIELDS = [
  'legal_name',
  'inn',
  'kpp',
  'legal_address',
  'bank_name',
  'bik',
  'settlement_account',
  'correspondent_account',
] as const satisfies readonly (keyof HotelRequisites)[];

/** Each requisite's name as a Russian invoice spells it. */
export const REQUISITE_NAMES: Record<keyof HotelRequisites, string> = {
  legal_name: 'наименование организации',
  inn: 'ИНН',
  kpp: 'КПП',
  legal_address: 'юридический адрес',
  bank_name: 'банк',
  bik: 'БИК',
  settlement_account: 'расчётный счёт',
  correspondent_account: 'корреспондентский счёт',
};

const digitsOf = (value: string) => [...value].map(Number);
const weighted = (digits: number[], weights: number[]) => weights.reduce((sum, w, i) => sum + w * digits[i], 0);
const innCheck = (digits: number[], weights: number[]) => (weighted(digits, weights) % 11) % 10;

/** The INN's check digits (Federal Tax Service order): one for an organisation's 10 digits, two for a person's 12. */
export function isValidInn(inn: string): boolean {
  if (!/^(\d{10}|\d{12})$/.test(inn)) return false;
  const d = digitsOf(inn);
  if (d.length === 10) return innCheck(d, [2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  return (
    innCheck(d, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && innCheck(d, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11]
  );
}

/**
 * The Central Bank's control key of an account (its 1997 rules): the 3 digits the BIK gives the account, then its 20
 * digits, weighted 7, 1, 3 over and over, sum to a multiple of 10.
 */
function keyMatches(prefix: string, account: string): boolean {
  const digits = digitsOf(prefix + account);
  return digits.reduce((sum, digit, i) => sum + digit * [7, 1, 3][i % 3], 0) % 10 === 0;
}

/** A settlement account at a bank: keyed with the BIK's last 3 digits. */
export const isValidSettlementAccount = (account: string, bik: string) =>
  /^\d{20}$/.test(account) && /^\d{9}$/.test(bik) && keyMatches(bik.slice(6), account);

/** A bank's correspondent account at the Central Bank: `301…`, keyed with `0` and the BIK's 5th and 6th digits. */
export const isValidCorrespondentAccount = (account: string, bik: string) =>
  /^301\d{17}$/.test(account) && /^\d{9}$/.test(bik) && keyMatches(`0${bik.slice(4, 6)}`, account);

const requisiteRules: [keyof HotelRequisites, (value: string, all: HotelRequisites) => boolean, string][] = [
  ['inn', isValidInn, 'ИНН — 10 цифр (организация) или 12 (ИП) с верными контрольными цифрами'],
  ['kpp', (kpp) => /^\d{4}[\dA-Z]{2}\d{3}$/.test(kpp), 'КПП — 9 знаков: 4 цифры, 2 цифры или латинские буквы, 3 цифры'],
  ['bik', (bik) => /^04\d{7}$/.test(bik), 'БИК — 9 цифр, начинается с 04'],
  [
    'settlement_account',
    (account, all) => /^\d{20}$/.test(account) && (!all.bik || isValidSettlementAccount(account, all.bik)),
    'Расчётный счёт — 20 цифр, контрольный ключ должен сходиться с БИК банка',
  ],
  [
    'correspondent_account',
    (account, all) => /^301\d{17}$/.test(account) && (!all.bik || isValidCorrespondentAccount(account, all.bik)),
    'Корреспондентский счёт — 20 цифр, начинается с 301, контрольный ключ должен сходиться с БИК банка',
  ],
];

/**
 * Refuses malformed requisites (422, every problem named in Russian): checked on the settings as they would be after
 * the change, so an account is checked against the BIK it will be kept with.
 */
export function assertRequisites(all: HotelRequisites): void {
  const problems = requisiteRules.flatMap(([field, valid, message]) => {
    const value = all[field];
    return value !== null && !valid(value, all) ? [message] : [];
  });
  if (problems.length > 0)
    throw new BusinessRuleError(
      `Реквизиты отеля заполнены с ошибками: ${problems.join('; ')}`,
      problems,
      'requisites_invalid',
    );
}

/** The requisites an invoice needs and the hotel has not filled (KPP only for an organisation's 10-digit INN). */
export function missingRequisites(all: HotelRequisites): (keyof HotelRequisites)[] {
  return REQUISITE_FIELDS.filter((field) => !all[field] && (field !== 'kpp' || all.inn?.length !== 12));
}
