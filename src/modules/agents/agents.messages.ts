import { UnauthorizedError } from '../../platform/errors';

export const agentMessages = {
  workstationNotFound: 'Рабочее место не найдено',
  deviceNotFound: 'Устройство не найдено',
  /** One answer for an unknown, used or expired code: the caller learns nothing about which. */
  invalidPairCode: 'Код привязки недействителен или истёк',
  comPortRequired: 'Для подключения через COM-порт укажите com_port',
  outOfBounds: 'Значение вне допустимых пределов',
  workstationOffline: 'Рабочее место не в сети: агент не подключён',
  agentTimeout: 'Рабочее место не ответило вовремя',
  agentFailed: 'Агент рабочего места сообщил об ошибке',
  agentBadAnswer: 'Агент рабочего места ответил не по протоколу',
  noRelease: 'Сборка агента ещё не опубликована: обновлять не на что',
};

/** An unknown, used, expired or malformed pair code: one answer. */
export const invalidPairCode = () => new UnauthorizedError(agentMessages.invalidPairCode, 'invalid_pair_code');

/** The protocol's error codes in words the desk understands; the agent's own words follow. */
const AGENT_ERROR_TEXTS: Record<string, string> = {
  encoder_not_found: 'Энкодер карт не найден на указанном порту',
  no_card: 'Приложите карту к энкодеру',
  card_write_failed: 'Не удалось записать карту',
  device_not_found: 'Устройство не найдено',
  device_busy: 'Устройство занято',
  fiscal_refused: 'Фискальный регистратор отклонил чек',
  shift_expired: 'Смена превысила 24 часа: закройте смену',
  unsupported_command: 'Агент не поддерживает эту команду: обновите агент',
  http_failed: 'Запрос через рабочее место не удался',
  timeout: 'Устройство не ответило вовремя',
};

/**
 * U+0000 in the agent's words (a driver's C string) is shown as U+2400 «␀»: the words go into records' text, which
 * cannot hold U+0000; the command keeps the reply exactly as sent.
 */
const visibleNul = (text: string) => text.replaceAll('\u0000', '\u2400');

export function agentErrorText(error: { code: string; message: string }): string {
  const known = AGENT_ERROR_TEXTS[error.code] ?? agentMessages.agentFailed;
  return error.message ? `${known}: ${visibleNul(error.message)}` : known;
}

/** How long a pair code may be exchanged for a credential. */
export const PAIR_CODE_TTL_MINUTES = 10;
