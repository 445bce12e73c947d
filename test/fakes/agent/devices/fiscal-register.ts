import { createHash } from 'node:crypto';
import { CommandFailure } from '../protocol';
import { objectField, stringField, type Payload } from '../payload';

/** ATOL drivers refuse receipts in a shift opened more than 24 hours ago until it is closed. */
const SHIFT_LIMIT_MS = 24 * 60 * 60 * 1000;
const FN_NUMBER = '7380440700123456';

export interface FiscalResult {
  fiscal_document_number: number;
  fiscal_document_sign: string;
  fn_number: string;
  shift_number: number;
  /** Null for the shift reports, which are documents but not receipts. */
  receipt_number: number | null;
  datetime: string;
  total: number;
}

export interface FiscalReceipt {
  type: 'sell' | 'sellReturn';
  task: Payload;
  fiscal: FiscalResult;
}

/** The register's counters, kept across agent restarts as the fiscal storage would. */
export interface FiscalRegisterSnapshot {
  shiftOpen: boolean;
  shiftNumber: number;
  shiftOpenedAt: number | null;
  receiptNumber: number;
  documentNumber: number;
}

/** A fiscal register driven by ATOL driver JSON tasks: openShift, closeShift, sell, sellReturn. */
export class FiscalRegister {
  /** While set, every task is refused with these words, as a register with a fault would. */
  refusal: string | undefined;
  readonly receipts: FiscalReceipt[] = [];
  private state: FiscalRegisterSnapshot;

  constructor(snapshot?: FiscalRegisterSnapshot) {
    this.state = snapshot ?? {
      shiftOpen: false,
      shiftNumber: 0,
      shiftOpenedAt: null,
      receiptNumber: 0,
      documentNumber: 0,
    };
  }

  snapshot(): FiscalRegisterSnapshot {
    return { ...this.state };
  }

  get shift(): { open: boolean; number: number; openedAt: Date | null } {
    const { shiftOpen, shiftNumber, shiftOpenedAt } = this.state;
    return { open: shiftOpen, number: shiftNumber, openedAt: shiftOpenedAt === null ? null : new Date(shiftOpenedAt) };
  }

  /** Moves the open shift's start back, to reach the 24-hour limit without waiting. */
  ageShift(ms: number): void {
    if (this.state.shiftOpenedAt !== null) this.state.shiftOpenedAt -= ms;
  }

  execute(payload: Payload): { fiscal: FiscalResult } {
    const task = objectField(payload, 'task');
    const type = stringField(task, 'type');
    if (this.refusal !== undefined) throw refused(this.refusal);
    switch (type) {
      case 'openShift':
        if (this.state.shiftOpen) throw refused('Смена открыта - операция невозможна');
        return { fiscal: this.openShift() };
      case 'closeShift':
        if (!this.state.shiftOpen) throw refused('Смена закрыта - операция невозможна');
        return { fiscal: this.closeShift() };
      case 'sell':
      case 'sellReturn':
        return { fiscal: this.receipt(type, task) };
      default:
        throw refused(`Неподдерживаемый тип задания: ${type}`);
    }
  }

  private openShift(): FiscalResult {
    this.state.shiftOpen = true;
    this.state.shiftNumber += 1;
    this.state.shiftOpenedAt = Date.now();
    this.state.receiptNumber = 0;
    return this.document(null, 0);
  }

  private closeShift(): FiscalResult {
    const closing = this.document(null, 0);
    this.state.shiftOpen = false;
    this.state.shiftOpenedAt = null;
    return closing;
  }

  /** A receipt with the shift closed opens it first, as ATOL drivers do. */
  private receipt(type: FiscalReceipt['type'], task: Payload): FiscalResult {
    const totalKopecks = receiptTotalKopecks(task);
    if (!this.state.shiftOpen) this.openShift();
    if (Date.now() - (this.state.shiftOpenedAt ?? 0) > SHIFT_LIMIT_MS) {
      throw new CommandFailure('shift_expired', 'Смена превысила 24 часа');
    }
    this.state.receiptNumber += 1;
    const fiscal = this.document(this.state.receiptNumber, totalKopecks / 100);
    this.receipts.push({ type, task, fiscal });
    return fiscal;
  }

  private document(receiptNumber: number | null, total: number): FiscalResult {
    const documentNumber = ++this.state.documentNumber;
    const datetime = new Date().toISOString();
    return {
      fiscal_document_number: documentNumber,
      fiscal_document_sign: documentSign(documentNumber, datetime, total),
      fn_number: FN_NUMBER,
      shift_number: this.state.shiftNumber,
      receipt_number: receiptNumber,
      datetime,
      total,
    };
  }
}

function refused(message: string): CommandFailure {
  return new CommandFailure('fiscal_refused', message);
}

/**
 * The values the ATOL driver's JSON task documentation lists (tax rates with 5, 7 and 22 % since 2025–2026, tags 1199,
 * 1214, 1212, 1055 and the payment types); the register refuses a task with any other. Written from the documentation
 * apart from the service's own lists (src/integrations/atol), so a mistake there is refused here, not shared.
 */
const TAX_TYPES = new Set([
  'none',
  'vat0',
  'vat5',
  'vat7',
  'vat10',
  'vat20',
  'vat22',
  'vat105',
  'vat107',
  'vat110',
  'vat120',
  'vat122',
]);
const PAYMENT_METHODS = new Set([
  'fullPrepayment',
  'prepayment',
  'advance',
  'fullPayment',
  'partialPayment',
  'credit',
  'creditPayment',
]);
const PAYMENT_OBJECTS = new Set([
  'commodity',
  'excise',
  'job',
  'service',
  'gamblingBet',
  'gamblingPrize',
  'lottery',
  'lotteryPrize',
  'intellectualActivity',
  'payment',
  'agentCommission',
  'composite',
  'another',
  'proprietaryLaw',
  'nonOperatingIncome',
  'otherContributions',
  'merchantTax',
  'resortFee',
  'deposit',
  'consumption',
  'soleProprietorCPIContributions',
  'cpiContributions',
  'soleProprietorCMIContributions',
  'cmiContributions',
  'csiContributions',
  'casinoPayment',
  'fundsIssuance',
]);
/**
 * The format of fiscal data (tags 1199 and 1214) ties the rate to the settlement method: money taken before the
 * service (full prepayment, prepayment, advance) carries the calculated rates (20/120 ...), anything else the rates
 * themselves; the fiscal storage refuses a position that mixes them. `none` and `vat0` go with either.
 */
const PREPAYMENT_METHODS = new Set(['fullPrepayment', 'prepayment', 'advance']);
const CALCULATED_TAX_TYPES = new Set(['vat105', 'vat107', 'vat110', 'vat120', 'vat122']);
const CHARGED_TAX_TYPES = new Set(['vat5', 'vat7', 'vat10', 'vat20', 'vat22']);
const PAYMENT_TYPES = new Set(['cash', 'electronically', 'prepaid', 'credit', 'other']);
const TAXATION_TYPES = new Set(['osn', 'usnIncome', 'usnIncomeOutcome', 'envd', 'esn', 'patent']);
/** The longest position name the register prints (tag 1030). */
const MAX_NAME_LENGTH = 128;

/**
 * The receipt checked as the driver checks it: each position's amount is its price times its quantity to the kopeck,
 * with a known tax rate, settlement method and object; payments of known types; `total` the sum of the positions and
 * the payments that sum exactly. Answers the total in kopecks.
 */
function receiptTotalKopecks(task: Payload): number {
  const taxation = task.taxationType;
  if (taxation !== undefined && !TAXATION_TYPES.has(taxation as string)) {
    throw refused(`Неверная система налогообложения: ${String(taxation)}`);
  }
  const items = listOf(task, 'items').filter((item) => item.type === undefined || item.type === 'position');
  if (items.length === 0) throw refused('Чек не содержит позиций');
  items.forEach(checkPosition);
  const total = sumKopecks(items, 'amount');
  const payments = listOf(task, 'payments');
  for (const payment of payments) {
    if (!PAYMENT_TYPES.has(payment.type as string)) throw refused(`Неверный тип оплаты: ${String(payment.type)}`);
  }
  if (task.total !== undefined && kopecks(task.total, 'total') !== total) {
    throw refused(`Итог чека (${String(task.total)}) не равен сумме позиций (${total / 100})`);
  }
  const paid = sumKopecks(payments, 'sum');
  if (paid !== total) {
    throw refused(`Сумма оплат (${paid / 100}) не равна сумме чека (${total / 100})`);
  }
  return total;
}

function checkPosition(item: Payload): void {
  if (typeof item.name !== 'string' || item.name === '' || item.name.length > MAX_NAME_LENGTH) {
    throw refused(`Неверное наименование позиции (от 1 до ${MAX_NAME_LENGTH} символов)`);
  }
  const price = kopecks(item.price, 'price');
  const quantity = item.quantity;
  if (
    typeof quantity !== 'number' ||
    !(quantity > 0) ||
    Math.abs(Math.round(quantity * 1000) - quantity * 1000) > 1e-6
  ) {
    throw refused(`Неверное количество позиции «${item.name}»`);
  }
  const amount = kopecks(item.amount, 'amount');
  if (price < 0 || amount !== Math.round(price * quantity)) {
    throw refused(
      `Сумма позиции «${item.name}» (${amount / 100}) не равна цене × количество (${price / 100} × ${quantity})`,
    );
  }
  const tax = item.tax as Payload | undefined;
  if (!TAX_TYPES.has(tax?.type as string)) throw refused(`Неверная ставка НДС позиции «${item.name}»`);
  if (item.paymentMethod !== undefined && !PAYMENT_METHODS.has(item.paymentMethod as string)) {
    throw refused(`Неверный признак способа расчёта позиции «${item.name}»`);
  }
  if (item.paymentObject !== undefined && !PAYMENT_OBJECTS.has(item.paymentObject as string)) {
    throw refused(`Неверный признак предмета расчёта позиции «${item.name}»`);
  }
  const prepayment = PREPAYMENT_METHODS.has((item.paymentMethod as string | undefined) ?? 'fullPayment');
  if ((prepayment ? CHARGED_TAX_TYPES : CALCULATED_TAX_TYPES).has(tax!.type as string)) {
    throw refused(
      `Ставка НДС позиции «${item.name}» не соответствует способу расчёта: ` +
        (prepayment ? 'для предоплаты нужна расчётная ставка' : 'расчётная ставка только для предоплаты'),
    );
  }
}

/** A money value in kopecks: a finite number with at most two decimals. */
function kopecks(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw refused(`Некорректное значение ${field}`);
  const result = Math.round(value * 100);
  if (Math.abs(result - value * 100) > 1e-6) throw refused(`Некорректное значение ${field}: больше двух знаков`);
  return result;
}

function listOf(task: Payload, field: string): Payload[] {
  const list = task[field];
  if (!Array.isArray(list)) throw refused(`Некорректное задание: нет поля ${field}`);
  return list as Payload[];
}

function sumKopecks(entries: Payload[], field: string): number {
  return entries.reduce((sum, entry) => sum + kopecks(entry[field], field), 0);
}

/** The fiscal sign is a number the fiscal storage derives from the document; any stable digits will do here. */
function documentSign(documentNumber: number, datetime: string, total: number): string {
  const digest = createHash('sha256').update(`${FN_NUMBER}|${documentNumber}|${datetime}|${total}`).digest();
  return String(digest.readUInt32BE(0)).padStart(10, '0');
}
