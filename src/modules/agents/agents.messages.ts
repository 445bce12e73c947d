export const agentMessages = {
  workstationNotFound: 'Рабочее место не найдено',
  deviceNotFound: 'Устройство не найдено',
  /** One answer for an unknown, used or expired code: the caller learns nothing about which. */
  invalidPairCode: 'Код привязки недействителен или истёк',
  comPortRequired: 'Для подключения через COM-порт укажите com_port',
  outOfBounds: 'Значение вне допустимых пределов',
};

/** How long a pair code may be exchanged for a credential. */
export const PAIR_CODE_TTL_MINUTES = 10;
