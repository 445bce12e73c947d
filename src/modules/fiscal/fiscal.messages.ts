export const fiscalMessages = {
  receiptNotFound: 'Фискальный чек не найден',
  deviceNotRegister: 'Устройство не фискальный регистратор: чек печатается только на кассе',
  receiptInvalid: 'Чек не может быть напечатан',
  periodReversed: 'Дата «to» не может быть раньше даты «from»',
  noRegister: 'На этом рабочем месте нет фискального регистратора: чек напечатать негде',
};

/**
 * What staff read on a failed receipt: the protocol's error codes of a `fiscal_receipt` command in words of the desk,
 * the register's or agent's own words after them.
 */
const FAILURE_TEXTS: Record<string, string> = {
  fiscal_refused: 'Касса отказалась печатать чек',
  shift_expired: 'Смена на кассе идёт больше 24 часов: закройте смену и повторите печать',
  device_not_found: 'Агент не нашёл кассу на этом рабочем месте',
  device_busy: 'Касса занята другой операцией',
  unsupported_command: 'Агент рабочего места не умеет печатать чеки: обновите агент',
  timeout: 'Касса не ответила вовремя',
  agent_unreachable: 'Рабочее место недоступно (удалено или отвязано): чек не напечатан',
  deadline_exceeded: 'Рабочее место не вышло на связь вовремя: чек не напечатан',
  invalid_answer: 'Касса вернула неполные фискальные реквизиты',
};

/** The longest stored error message (the column's bound). */
const MAX_MESSAGE = 2000;

export function failureText(code: string, message: string): string {
  const words = FAILURE_TEXTS[code] ?? 'Чек не напечатан';
  const own = message.trim();
  return Array.from(own ? `${words}: ${own}` : words)
    .slice(0, MAX_MESSAGE)
    .join('');
}
