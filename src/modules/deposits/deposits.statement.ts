import { escapeHtml, type MailMessage } from '../../platform/mail';
import type { Hotel } from '../hotels';
import type { NotificationInput } from '../notifications';
import { formatMoney, parseMoney } from '../../platform/money';
import type { Deposit } from './deposits.types';

/** The texts a deposit sends: the guest's itemized statement after a release, and staff's notice of a settled hold. */

function money(value: string, currency: string): string {
  return `${value} ${currency}`;
}

/** What was kept, line by line, and what went back to the guest. */
export function depositStatement(hotel: Pick<Hotel, 'name'>, deposit: Deposit): MailMessage {
  const kept = parseMoney(deposit.captured_amount);
  const returned = parseMoney(deposit.amount) - kept;
  const lines = deposit.deductions.map((line) => `${line.name}: ${money(line.amount, deposit.currency)}`);
  const summary = [
    `Сумма депозита: ${money(deposit.amount, deposit.currency)}`,
    ...(lines.length > 0 ? ['Удержано:', ...lines.map((line) => `  ${line}`)] : ['Удержаний нет']),
    `Итого удержано: ${money(formatMoney(kept), deposit.currency)}`,
    `Возвращено: ${money(formatMoney(returned), deposit.currency)}`,
  ];
  const rows = deposit.deductions
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.name)}</td><td>${escapeHtml(money(line.amount, deposit.currency))}</td></tr>`,
    )
    .join('');
  return {
    to: deposit.guest_email!,
    subject: `Возврат депозита — ${hotel.name}`,
    text: [`Здравствуйте!`, `Отель «${hotel.name}» вернул ваш депозит.`, ...summary].join('\n'),
    html:
      `<p>Здравствуйте!</p><p>Отель «${escapeHtml(hotel.name)}» вернул ваш депозит.</p>` +
      `<p>Сумма депозита: ${escapeHtml(money(deposit.amount, deposit.currency))}</p>` +
      (rows ? `<table><tr><th>Удержание</th><th>Сумма</th></tr>${rows}</table>` : '<p>Удержаний нет</p>') +
      `<p>Итого удержано: ${escapeHtml(money(formatMoney(kept), deposit.currency))}<br>` +
      `Возвращено: ${escapeHtml(money(formatMoney(returned), deposit.currency))}</p>`,
  };
}

export function settledNotice(deposit: Deposit, action: 'capture' | 'release'): NotificationInput {
  const what = action === 'capture' ? 'списан полностью' : 'возвращён гостю';
  return {
    type: 'deposit_settled',
    title: `Депозит ${money(deposit.amount, deposit.currency)} ${what}: срок удержания на карте истекал`,
    body:
      'Банк держит сумму на карте не больше 7 дней. По правилу отеля депозит ' +
      (action === 'capture' ? 'списан; вернуть деньги можно через возврат.' : 'освобождён.'),
    dedupeKey: `deposit-settled:${deposit.id}`,
    data: { deposit_id: deposit.id, booking_id: deposit.booking_id },
  };
}
