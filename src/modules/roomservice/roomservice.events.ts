import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { ORDER_STATUSES, type OrderStatus } from './roomservice.types';

export interface OrderPayload {
  order_id: string;
  number: number;
  room_id: string;
  booking_id: string;
  status: OrderStatus;
  total: string;
}

const order = {
  order_id: Joi.string().uuid().required(),
  number: Joi.number().integer().required(),
  room_id: Joi.string().uuid().required(),
  booking_id: Joi.string().uuid().required(),
  status: Joi.string()
    .valid(...ORDER_STATUSES)
    .required(),
  total: Joi.string().required(),
};

export const orderCreated = defineHotelEvent<OrderPayload>(
  'room_service_order_created',
  'A guest placed a room-service order (status `new`): the orders list reloads it.',
  Joi.object(order),
);

export const orderUpdated = defineHotelEvent<OrderPayload>(
  'room_service_order_updated',
  'A room-service order moved to `status` (accepted, preparing, delivered, cancelled, refunded).',
  Joi.object(order),
);

export const ROOM_SERVICE_EVENTS = [orderCreated, orderUpdated];
