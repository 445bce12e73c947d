export const lockMessages = {
  notConfigured: 'Замки не настроены: укажите client_id, client_secret, логин и пароль аккаунта TTLock',
  disabled: 'Выдача карт выключена в настройках замков',
  roomLockNotFound: 'Привязка замка не найдена',
  roomNotFound: 'Номер не найден',
  roomTaken: 'К этому номеру уже привязан другой замок: сначала отвяжите его',
  noCloudAccepts: 'Аккаунт TTLock не принят ни европейским, ни китайским сервером',
  outOfBounds: 'Значение вне допустимых пределов',
};

/** A stored token is replaced this long before it expires, so a card is never written with one about to lapse. */
export const TOKEN_REFRESH_MARGIN_MS = 24 * 60 * 60_000;
