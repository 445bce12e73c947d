import { UnauthorizedError } from '../../platform/errors';

export const tvMessages = {
  workstationRequired: 'Для подключения через рабочее место укажите agent_workstation_id',
  serverRequired: 'Для включения интеграции укажите server_url',
  workstationNotFound: 'Рабочее место не найдено',
  roomNotFound: (roomId: string) => `Номер ${roomId} не найден в этом отеле`,
  roomNotMappedForTest: 'Этот номер не сопоставлен с номером ТВ-системы',
  tokenInvalid: 'Неверный или отсутствующий токен ТВ-системы',
  hotelRequired: 'Укажите отель параметром hotel (slug)',
  hotelNotFound: 'Отель не найден',
  tokenWeak:
    'Токен ТВ-системы слишком прост: нужно не меньше 128 бит случайности (например, 32 шестнадцатеричных символа). ' +
    'Лучше выпустите токен здесь',
};

/** A poll without the token of a hotel: one answer for a missing, malformed or wrong token. */
export const tokenInvalid = () => new UnauthorizedError(tvMessages.tokenInvalid, 'tv_token_invalid');

/** Why a push was not sent or failed, as the log shows it to staff. */
export const pushDetails = {
  disabled: 'Интеграция выключена',
  noServer: 'Не указан адрес ТВ-сервера',
  noWorkstation: 'Не указано рабочее место для отправки',
  roomNotMapped: 'Номер не сопоставлен с номером ТВ-системы',
  bookingNotFound: 'Бронирование не найдено',
  notInHouse: 'Гость уже не проживает: заселение не отправлено',
  deskOffline: 'Рабочее место не в сети',
  deskSilent: 'Рабочее место не ответило вовремя',
  ok: (status: number) => `HTTP ${status}`,
};
