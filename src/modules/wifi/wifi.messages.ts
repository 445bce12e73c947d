import { AppError, RateLimitedError, UnauthorizedError } from '../../platform/errors';

export const wifiMessages = {
  notAuthorized: 'Доступ не предоставлен: проверьте номер комнаты и данные гостя',
  disabled: 'Wi-Fi авторизация гостей выключена в настройках отеля',
  deviceLimit: 'Достигнуто число устройств на одно проживание',
  portalUnauthorized: 'Портал не авторизован: неверный секрет портала или отель',
};

/** Why the portal is told no (`reason`), beside the problem's `code`. */
export type WifiRefusalReason = 'not_authorized' | 'disabled' | 'device_limit' | 'too_many_attempts';

const refused = (reason: WifiRefusalReason) => ({ authorized: false, reason });

/**
 * A guest not let in: a problem body the portal can also read as `{ authorized: false, reason }`. "No such room", "no
 * one checked in" and "wrong surname" are one refusal, so the answer tells nobody who stays where.
 */
export class WifiRefusal extends AppError {
  constructor(
    readonly reason: Exclude<WifiRefusalReason, 'too_many_attempts'>,
    message: string,
  ) {
    super(403, `wifi_${reason}`, message);
  }

  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), ...refused(this.reason) };
  }
}

/** Too many wrong guesses for the room or from the device: 429 with `Retry-After`, even for a right one. */
export class WifiThrottled extends RateLimitedError {
  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), ...refused('too_many_attempts') };
  }
}

/** A caller without the hotel's portal secret (or naming a hotel it is not the portal of): one answer for both. */
export const portalUnauthorized = () =>
  new UnauthorizedError(wifiMessages.portalUnauthorized, 'wifi_portal_unauthorized');
