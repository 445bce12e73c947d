import type { YooKassaBankCard } from '../../../src/integrations/yookassa';

/** The test cards a payer picks by name on the payer page (numbers from YooKassa's testing guide). */
export const TEST_CARDS = {
  /** Mastercard with 3-D Secure: the payment goes through. */
  success: '5555555555554477',
  /** Declined by the issuer: insufficient_funds. */
  decline: '5555555555554600',
  /** 3-D Secure authentication fails: 3d_secure_failed. */
  '3ds_fail': '5555555555554592',
} as const;

/** Cards YooKassa's test shops accept. */
const SUCCESSFUL_CARDS = [
  '5555555555554477',
  '5555555555554444',
  '4793128161644804',
  '4111111111111111',
  '2200000000000004',
  '2202474301322987',
];

/** Cards YooKassa's test shops decline, with the cancellation reason each one gives. */
const DECLINING_CARDS = new Map([
  ['5555555555554592', '3d_secure_failed'],
  ['5555555555554535', 'call_issuer'],
  ['5555555555554543', 'card_expired'],
  ['5555555555554568', 'fraud_suspected'],
  ['5555555555554527', 'general_decline'],
  ['5555555555554600', 'insufficient_funds'],
  ['5555555555554618', 'invalid_card_number'],
  ['5555555555554626', 'invalid_csc'],
  ['5555555555554501', 'issuer_unavailable'],
  ['5555555555554576', 'payment_method_limit_exceeded'],
]);

export interface CardOutcome {
  card: YooKassaBankCard;
  /** Why the payment network declines this card; absent when the payment goes through. */
  declineReason?: string;
}

/** Every card the payer page offers, named for its choice list. */
export const CARD_CHOICES: [number: string, label: string][] = [
  ...SUCCESSFUL_CARDS.map((number): [string, string] => [number, `${cardType(number)}: pays`]),
  ...[...DECLINING_CARDS].map(([number, reason]): [string, string] => [
    number,
    `${cardType(number)}: declined, ${reason}`,
  ]),
];

/** The card a payer named (a test card number, spaces allowed, or success / decline / 3ds_fail); undefined if unknown. */
export function testCard(choice: string): CardOutcome | undefined {
  const number = Object.hasOwn(TEST_CARDS, choice)
    ? TEST_CARDS[choice as keyof typeof TEST_CARDS]
    : choice.replace(/[\s-]/g, '');
  const declineReason = DECLINING_CARDS.get(number);
  if (!declineReason && !SUCCESSFUL_CARDS.includes(number)) return undefined;
  return {
    card: {
      first6: number.slice(0, 6),
      last4: number.slice(-4),
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 3),
      card_type: cardType(number),
      issuer_country: 'RU',
    },
    declineReason,
  };
}

function cardType(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  if (number.startsWith('2')) return 'Mir';
  return 'MasterCard';
}
