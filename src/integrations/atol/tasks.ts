import { normalizePhone } from '../../platform/phone';
import { formatKopecks, kopecksOf, lineKopecks, MAX_KOPECKS, quantityOf, roublesOf, thousandthsOf } from './amounts';
import { AtolTaskError } from './errors';
import {
  RECEIPT_PAYMENT_KINDS,
  SETTLEMENT_METHODS,
  SETTLEMENT_OBJECTS,
  TAXATION_SYSTEMS,
  VAT_RATES,
  type AtolOperator,
  type AtolPaymentMethod,
  type AtolPaymentType,
  type AtolPosition,
  type AtolReceiptTask,
  type AtolReceiptType,
  type AtolShiftTask,
  type AtolTaxationType,
  type AtolTaxType,
  type ReceiptInput,
  type ReceiptLine,
  type ReceiptPayment,
  type SettlementMethod,
  type VatRate,
} from './types';

/** The driver's limits: an item's name (tag 1030), the cashier's name (tag 1021), the customer's contact (tag 1008). */
export const ATOL_LIMITS = { itemName: 128, operatorName: 64, contact: 64, lines: 100, payments: 10 } as const;

const TAXATION: Record<(typeof TAXATION_SYSTEMS)[number], AtolTaxationType> = {
  osn: 'osn',
  usn_income: 'usnIncome',
  usn_income_outcome: 'usnIncomeOutcome',
  esn: 'esn',
  patent: 'patent',
};

const METHODS: Record<SettlementMethod, AtolPaymentMethod> = {
  full_prepayment: 'fullPrepayment',
  prepayment: 'prepayment',
  advance: 'advance',
  full_payment: 'fullPayment',
  partial_payment: 'partialPayment',
  credit: 'credit',
  credit_payment: 'creditPayment',
};

const PAYMENT_TYPES: Record<(typeof RECEIPT_PAYMENT_KINDS)[number], AtolPaymentType> = {
  cash: 'cash',
  card: 'electronically',
  prepaid: 'prepaid',
};

/** Money taken before the service is rendered: 54-FZ wants VAT at the calculated rate (20/120) on it. */
const PREPAYMENT_METHODS: ReadonlySet<SettlementMethod> = new Set(['full_prepayment', 'prepayment', 'advance']);

/** The driver's tax types of each rate: as charged, and as the calculated rate of a prepayment. */
const TAX_TYPES: Record<VatRate, { charged: AtolTaxType; calculated: AtolTaxType }> = {
  none: { charged: 'none', calculated: 'none' },
  '0': { charged: 'vat0', calculated: 'vat0' },
  '5': { charged: 'vat5', calculated: 'vat105' },
  '7': { charged: 'vat7', calculated: 'vat107' },
  '10': { charged: 'vat10', calculated: 'vat110' },
  '20': { charged: 'vat20', calculated: 'vat120' },
  '22': { charged: 'vat22', calculated: 'vat122' },
};

/** The driver's tax type for a rate and a settlement method. */
export function taxTypeOf(vat: VatRate, method: SettlementMethod): AtolTaxType {
  return TAX_TYPES[vat][PREPAYMENT_METHODS.has(method) ? 'calculated' : 'charged'];
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown, path: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new AtolTaskError(`Недопустимое значение: ожидается одно из ${allowed.join(', ')}`, path);
}

/** Trimmed, cut to `max` characters (by code point, so no emoji is split), never empty. */
function text(value: unknown, max: number, path: string, missing: string): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (!trimmed) throw new AtolTaskError(missing, path);
  return Array.from(trimmed).slice(0, max).join('').trim();
}

/** `noun`: the genitive singular and plural (`позиции`, `позиций`). */
function listOf<T>(value: T[] | undefined, max: number, path: string, noun: [string, string]): T[] {
  if (!Array.isArray(value) || value.length === 0) throw new AtolTaskError(`В чеке нет ни одной ${noun[0]}`, path);
  if (value.length > max) throw new AtolTaskError(`В чеке может быть не больше ${max} ${noun[1]}`, path);
  return value;
}

function operatorOf(operator: AtolOperator | undefined): AtolOperator {
  const name = text(operator?.name, ATOL_LIMITS.operatorName, 'operator.name', 'Не указано имя кассира');
  const vatin = operator?.vatin?.trim();
  if (vatin === undefined || vatin === '') return { name };
  if (!/^\d{12}$/.test(vatin)) throw new AtolTaskError('ИНН кассира должен состоять из 12 цифр', 'operator.vatin');
  return { name, vatin };
}

function contactOf(customer: ReceiptInput['customer']): string | undefined {
  const email = customer?.email?.trim();
  if (email) {
    if (email.length > ATOL_LIMITS.contact || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new AtolTaskError('Некорректный адрес электронной почты покупателя', 'customer.email');
    }
    return email;
  }
  if (!customer?.phone?.trim()) return undefined;
  // Tag 1008 takes the phone as `+` and the digits with the country code: the E.164 normal form.
  const phone = normalizePhone(customer.phone);
  if (phone === null) throw new AtolTaskError('Некорректный телефон покупателя', 'customer.phone');
  return phone;
}

function positionOf(line: ReceiptLine, index: number): { position: AtolPosition; kopecks: bigint } {
  const path = `lines[${index}]`;
  const method = oneOf(SETTLEMENT_METHODS, line?.method, `${path}.method`);
  const price = kopecksOf(line?.unitPrice, `${path}.unitPrice`);
  const quantity = thousandthsOf(line?.quantity, `${path}.quantity`);
  const kopecks = lineKopecks(price, quantity);
  if (kopecks <= 0n) throw new AtolTaskError('Сумма позиции должна быть больше нуля', `${path}.unitPrice`);
  if (kopecks > MAX_KOPECKS) throw new AtolTaskError('Сумма позиции слишком велика', `${path}.unitPrice`);
  const position: AtolPosition = {
    type: 'position',
    name: text(line.name, ATOL_LIMITS.itemName, `${path}.name`, 'Не указано название позиции'),
    price: roublesOf(price),
    quantity: quantityOf(quantity),
    amount: roublesOf(kopecks),
    tax: { type: taxTypeOf(oneOf(VAT_RATES, line.vat, `${path}.vat`), method) },
    paymentMethod: METHODS[method],
    paymentObject: oneOf(SETTLEMENT_OBJECTS, line.object, `${path}.object`),
  };
  return { position, kopecks };
}

function paymentOf(payment: ReceiptPayment, index: number): { type: AtolPaymentType; kopecks: bigint } {
  const path = `payments[${index}]`;
  const kind = oneOf(RECEIPT_PAYMENT_KINDS, payment?.kind, `${path}.kind`);
  const kopecks = kopecksOf(payment.amount, `${path}.amount`);
  if (kopecks <= 0n) throw new AtolTaskError('Сумма оплаты должна быть больше нуля', `${path}.amount`);
  return { type: PAYMENT_TYPES[kind], kopecks };
}

const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);

function receiptTask(type: AtolReceiptType, receipt: ReceiptInput): AtolReceiptTask {
  const lines = listOf(receipt?.lines, ATOL_LIMITS.lines, 'lines', ['позиции', 'позиций']).map(positionOf);
  const payments = listOf(receipt.payments, ATOL_LIMITS.payments, 'payments', ['оплаты', 'оплат']).map(paymentOf);
  const total = sum(lines.map((line) => line.kopecks));
  const paid = sum(payments.map((payment) => payment.kopecks));
  if (total > MAX_KOPECKS) throw new AtolTaskError('Сумма чека слишком велика', 'lines');
  if (paid !== total) {
    throw new AtolTaskError(
      `Сумма оплат (${formatKopecks(paid)} ₽) не равна сумме позиций чека (${formatKopecks(total)} ₽)`,
      'payments',
    );
  }
  const contact = contactOf(receipt.customer);
  return {
    type,
    taxationType: TAXATION[oneOf(TAXATION_SYSTEMS, receipt.taxation, 'taxation')],
    operator: operatorOf(receipt.operator),
    electronically: contact !== undefined && receipt.print === false,
    ...(contact !== undefined && { clientInfo: { emailOrPhone: contact } }),
    items: lines.map((line) => line.position),
    payments: payments.map((payment) => ({ type: payment.type, sum: roublesOf(payment.kopecks) })),
    total: roublesOf(total),
  };
}

/** A sale (приход): money the guest pays. Throws AtolTaskError when the register would refuse the receipt. */
export function sellTask(receipt: ReceiptInput): AtolReceiptTask {
  return receiptTask('sell', receipt);
}

/** A return of a sale (возврат прихода): money given back, described as the sale it reverses. */
export function sellReturnTask(receipt: ReceiptInput): AtolReceiptTask {
  return receiptTask('sellReturn', receipt);
}

export function openShiftTask(operator: AtolOperator): AtolShiftTask {
  return { type: 'openShift', operator: operatorOf(operator) };
}

export function closeShiftTask(operator: AtolOperator): AtolShiftTask {
  return { type: 'closeShift', operator: operatorOf(operator) };
}
