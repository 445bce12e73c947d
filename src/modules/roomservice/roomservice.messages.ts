import { AppError, BusinessRuleError, ValidationError } from '../../platform/errors';
import type { OrderStatus } from './roomservice.types';

const STATUS_NAMES: Record<OrderStatus, string> = {
  new: 'новый',
  accepted: 'принят',
  preparing: 'готовится',
  delivered: 'доставлен',
  cancelled: 'отменён',
  refunded: 'возвращён',
};

export const roomServiceMessages = {
  notAuthorized: 'Нет доступа: проверьте номер комнаты и код проживания',
  disabled: 'Обслуживание в номерах сейчас не работает',
  closed: (opensAt: string, closesAt: string) =>
    `Обслуживание в номерах закрыто: заказы принимаются с ${opensAt} до ${closesAt}`,
  roomNotServed: 'В этот номер обслуживание не доставляет',
  belowMinimum: (minimum: string) => `Сумма заказа меньше минимальной: ${minimum}`,
  itemsUnavailable: 'Некоторых блюд нет в меню или они сейчас недоступны',
  unknownRooms: 'Нет таких номеров в этом отеле',
  foreignPhoto: 'Фотография должна быть загружена этим отелем через /api/upload',
  categoryNotFound: 'Категория меню не найдена',
  categoryNameTaken: 'Категория меню с таким названием уже существует',
  categoryHasItems: 'В категории есть блюда: сначала перенесите или удалите их',
  itemNotFound: 'Блюдо не найдено',
  itemNameTaken: 'Блюдо с таким названием уже есть в этой категории',
  orderNotFound: 'Заказ не найден',
  stayNotFound: 'Бронирование не найдено',
  stayNotInHouse: 'Гость сейчас не проживает: заказ в номер принимается только во время проживания',
  stayClosed: 'Проживание завершено или отменено: код для обслуживания в номер не выдаётся',
  illegalMove: (from: OrderStatus, to: OrderStatus) =>
    `Нельзя перевести заказ из статуса «${STATUS_NAMES[from]}» в «${STATUS_NAMES[to]}»`,
  orderTooLarge: 'Сумма заказа слишком велика',
};

/**
 * No stay proven: no such room, nobody in house there now, a wrong code, a code of another room or stay, another
 * hotel: one answer, so nobody learns who stays where.
 */
export const notAuthorized = () => new AppError(403, 'room_service_not_authorized', roomServiceMessages.notAuthorized);

/** A rule of the hotel's room service refused the order (422 with a stable code). */
export const refused = (code: string, message: string, errors: string[] = []) =>
  new BusinessRuleError(message, errors, `room_service_${code}`);

/** A field of the request body that names something this hotel does not have (400 naming the field). */
export const bodyError = (field: string, message: string) =>
  new ValidationError(message, [{ path: `body.${field}`, message }]);
