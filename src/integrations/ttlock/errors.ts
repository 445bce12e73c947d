interface TTLockErrorDetails {
  /** TTLock's own code: 10004 an expired token, 10007 a wrong password, -1003 no such lock… */
  errcode?: number;
  errmsg?: string;
  status?: number;
  retryable: boolean;
}

/**
 * A failed TTLock call. The message is for the hotel's staff (Russian, with TTLock's code for support); it never holds
 * the request's parameters, which carry the client secret, the password hash and the tokens.
 */
export class TTLockError extends Error {
  readonly errcode?: number;
  readonly errmsg?: string;
  readonly status?: number;
  /** Whether the same call may succeed later: network failures, timeouts, 5xx and TTLock's internal errors. */
  readonly retryable: boolean;

  constructor(message: string, details: TTLockErrorDetails, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TTLockError';
    this.errcode = details.errcode;
    this.errmsg = details.errmsg;
    this.status = details.status;
    this.retryable = details.retryable;
  }
}

/** The codes staff meet, from https://euopen.ttlock.com/document-pages/en/cloud/errorCode. */
const STAFF_MESSAGES: Record<number, string> = {
  10000: 'TTLock не знает такого приложения: проверьте clientId',
  10001: 'TTLock не принял ключи приложения: проверьте clientId и clientSecret',
  10003: 'TTLock не знает этого токена доступа: войдите в аккаунт TTLock заново',
  10004: 'Токен доступа TTLock истёк или отозван: обновите токен или войдите заново',
  10007: 'Неверный логин или пароль аккаунта TTLock',
  10011: 'Токен обновления TTLock недействителен: войдите в аккаунт TTLock заново',
  20002: 'Аккаунт TTLock не администратор этого замка',
  30006: 'Превышен лимит запросов к TTLock: повторите позже',
  30007: 'Исчерпан месячный лимит запросов к TTLock',
  30008: 'Аккаунт TTLock живёт на другом сервере: выберите другой сервер (Европа или Китай)',
  80000: 'Часы сервера расходятся с TTLock больше чем на 5 минут: проверьте время на сервере',
  90000: 'Внутренняя ошибка TTLock: повторите позже',
  [-3]: 'TTLock отклонил параметры запроса',
  [-1003]: 'Замок не найден в TTLock',
  [-2018]: 'У аккаунта TTLock нет прав на этот замок',
  [-2025]: 'Замок заморожен в TTLock',
};

/**
 * What a refusal of one call means when its code is not one of the above: TTLock does not document the code of an
 * account without a hotel (or without the paid card-issuing function), so any other refusal of getHotelInfo says so.
 */
const PATH_MESSAGES: Record<string, string> = {
  '/v3/cardEncoder/getHotelInfo':
    'TTLock не выдал данные отеля для карт: создайте отель в приложении TTLock и включите выдачу карт',
};

const RETRYABLE_ERRCODES = new Set([90000]);

/** TTLock answered with a non-zero errcode. */
export function ttlockRefusal(path: string, errcode: number, errmsg: string | undefined, status: number): TTLockError {
  const text = STAFF_MESSAGES[errcode] ?? PATH_MESSAGES[path] ?? 'TTLock отклонил запрос';
  return new TTLockError(`${text} (TTLock ${path}: ${errcode}${errmsg ? ` ${errmsg}` : ''})`, {
    errcode,
    errmsg,
    status,
    retryable: RETRYABLE_ERRCODES.has(errcode),
  });
}

/** No final answer: the network, a timeout, a 5xx or a garbled body. */
export function ttlockUnavailable(path: string, reason: string, status?: number, cause?: unknown): TTLockError {
  return new TTLockError(
    `TTLock не отвечает, повторите позже (TTLock ${path}: ${reason})`,
    { status, retryable: true },
    { cause },
  );
}
