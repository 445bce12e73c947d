import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { credentialHeader } from '../../platform/http/credential-headers';
import { pageQueryKeys } from '../../platform/http/pagination';
import {
  calendarDate,
  dateSpan,
  hotelSlug,
  money,
  moneyOut,
  positiveMoney,
  slugParams,
} from '../../platform/http/schemas';
import { ORDER_STATUSES } from './roomservice.types';

/** Bounds that keep an order's total within its money column: 50 lines of 50 units of at most 1,000,000. */
export const LIMITS = {
  itemPrice: 1_000_000,
  deliveryFee: 100_000,
  minimumOrder: 1_000_000,
  lines: 50,
  quantity: 50,
  servedRooms: 1000,
  orderWindowDays: 366,
} as const;

const upTo = (schema: Joi.AlternativesSchema, max: number) =>
  schema
    .custom((value: string | undefined, helpers) =>
      value === undefined || Number(value) <= max ? value : helpers.error('money.max', { max }),
    )
    .messages({ 'money.max': '{{#label}} must be at most {{#max}}' });

const uuid = Joi.string().uuid();
const time = Joi.string()
  .pattern(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM')
  .messages({ 'string.pattern.name': '{{#label}} must be a time of day HH:MM (00:00 to 23:59)' });
const sortOrder = Joi.number().integer().min(-10000).max(10000);
const name = Joi.string().trim().min(1).max(100);

export const settingsChanges = Joi.object({
  enabled: Joi.boolean(),
  opens_at: time.description("When orders are taken from, in the hotel's time zone"),
  closes_at: time.description('Until when (not included); before `opens_at`: past midnight; equal: around the clock'),
  delivery_fee: upTo(money, LIMITS.deliveryFee).description('Added to every order'),
  minimum_order: upTo(money, LIMITS.minimumOrder).description('The least the items of an order may cost (no fee)'),
  room_ids: Joi.array()
    .items(uuid)
    .max(LIMITS.servedRooms)
    .unique()
    .allow(null)
    .description('The rooms served (rooms of this hotel); null: every room'),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const settingsSchema = Joi.object({
  hotel_id: uuid,
  enabled: Joi.boolean(),
  opens_at: Joi.string(),
  closes_at: Joi.string(),
  delivery_fee: moneyOut,
  minimum_order: moneyOut,
  room_ids: Joi.array().items(uuid).allow(null),
  updated_at: Joi.date(),
}).meta(openApiComponent('RoomServiceSettings'));

const categoryFields = { name, sort_order: sortOrder };
export const createCategoryBody = Joi.object({ ...categoryFields, name: name.required() });
export const updateCategoryBody = Joi.object(categoryFields).min(1);

export const categorySchema = Joi.object({
  id: uuid,
  hotel_id: uuid,
  name: Joi.string(),
  sort_order: Joi.number().integer(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RoomServiceMenuCategory'));

const itemFields = {
  category_id: uuid.description('A menu category of this hotel'),
  name,
  description: Joi.string().trim().max(1000).allow(''),
  price: upTo(positiveMoney, LIMITS.itemPrice),
  photo_url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2000)
    .allow(null)
    .description('A photo this hotel uploaded with `POST /api/upload` (any folder)'),
  is_available: Joi.boolean().description('Offered to guests now (false: hidden from the guest menu, not orderable)'),
  sort_order: sortOrder,
};
export const createItemBody = Joi.object({
  ...itemFields,
  category_id: itemFields.category_id.required(),
  name: name.required(),
  price: itemFields.price.required(),
});
export const updateItemBody = Joi.object(itemFields).min(1);
export const itemListQuery = Joi.object({ category_id: uuid, is_available: Joi.boolean() });

export const itemSchema = Joi.object({
  id: uuid,
  hotel_id: uuid,
  category_id: uuid,
  name: Joi.string(),
  description: Joi.string().allow(''),
  price: moneyOut,
  photo_url: Joi.string().allow(null),
  is_available: Joi.boolean(),
  sort_order: Joi.number().integer(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RoomServiceMenuItem'));

export const stayParams = slugParams.keys({ bookingId: uuid.required() });

export const stayCodeSchema = Joi.object({
  booking_id: uuid,
  room_id: uuid.description("The stay's room now (a code follows its stay when it moves)"),
  code: Joi.string().description('8 digits: the guest types it with the room number'),
  created_at: Joi.date(),
}).meta(openApiComponent('RoomServiceStayCode'));

export const orderListQuery = Joi.object({
  status: Joi.string().valid(...ORDER_STATUSES),
  room_id: uuid,
  booking_id: uuid,
  from: calendarDate.description("First day of `created_at`, in the hotel's time zone"),
  to: calendarDate.description('Last day (inclusive)'),
  ...pageQueryKeys,
}).custom(dateSpan('from', 'to', { maxDays: LIMITS.orderWindowDays }));

export const statusBody = Joi.object({
  status: Joi.string().valid('accepted', 'preparing', 'delivered', 'cancelled', 'refunded').required(),
  reason: Joi.string()
    .trim()
    .min(1)
    .max(500)
    .when('status', { is: Joi.valid('cancelled', 'refunded'), then: Joi.required(), otherwise: Joi.forbidden() })
    .description('Why it is cancelled or refunded: required with `cancelled` and `refunded`, and only then'),
});

const lineSchema = Joi.object({
  item_id: uuid.allow(null).description('Null once the item has left the menu; the line keeps its name and price'),
  name: Joi.string(),
  unit_price: moneyOut,
  quantity: Joi.number().integer(),
  amount: moneyOut,
}).meta(openApiComponent('RoomServiceOrderLine'));

export const orderSchema = Joi.object({
  id: uuid,
  number: Joi.number().integer().description("The hotel's order number, from 1"),
  booking_id: uuid,
  room_id: uuid,
  room_number: Joi.string(),
  status: Joi.string().valid(...ORDER_STATUSES),
  items: Joi.array().items(lineSchema),
  items_total: moneyOut,
  delivery_fee: moneyOut,
  total: moneyOut.description('Items and delivery fee: what delivery bills to the stay'),
  note: Joi.string().allow(''),
  cancel_reason: Joi.string().allow(null),
  refund_reason: Joi.string().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
  delivered_at: Joi.date().allow(null),
  cancelled_at: Joi.date().allow(null),
  refunded_at: Joi.date().allow(null),
}).meta(openApiComponent('RoomServiceOrder'));

// ---- the guest's routes ------------------------------------------------------------------------------------------

/** A header value the client percent-encoded (`encodeURIComponent`); undefined when it is not such a value. */
function decodedHeader(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export const proofHeaders = Joi.object({
  'x-room': Joi.string()
    .max(200)
    .custom((value: string, helpers) => {
      const room = decodedHeader(value);
      return room !== undefined && room.trim().length >= 1 && room.length <= 20 ? room : helpers.error('room.invalid');
    })
    .messages({ 'room.invalid': '{{#label}} must be a room number of 1 to 20 characters, percent-encoded' })
    .required()
    .description(
      'The room number as guests see it, percent-encoded (`encodeURIComponent`): headers carry no Cyrillic letters',
    ),
  'x-stay-code': credentialHeader(
    Joi.string()
      .pattern(/^\d{8}$/, '8 digits')
      .required()
      .description("The stay's 8-digit code (from the key-card sleeve)"),
  ),
}).unknown(true);

export const orderTokenHeaders = Joi.object({
  'x-order-token': credentialHeader(
    Joi.string()
      .pattern(/^[0-9a-f]{64}$/, 'order token')
      .required()
      .description('The `status_token` answered when the order was placed'),
  ),
}).unknown(true);

export const publicParams = Joi.object({ slug: hotelSlug.required() });
export const publicOrderParams = publicParams.keys({ id: uuid.required() });

export const orderBody = Joi.object({
  items: Joi.array()
    .items(
      Joi.object({
        item_id: uuid.required(),
        quantity: Joi.number().integer().min(1).max(LIMITS.quantity).required(),
      }),
    )
    .min(1)
    .max(LIMITS.lines)
    .unique('item_id')
    .required()
    .description('Items of the menu by id, each once; prices are the menu’s (a price sent is ignored)'),
  note: Joi.string().trim().max(500).allow('').description('For the kitchen or the waiter'),
});

export const deskOrderBody = orderBody.keys({
  booking_id: uuid.required().description('A booking of this hotel, its guest in house now'),
});

const guestItem = Joi.object({
  id: uuid,
  name: Joi.string(),
  description: Joi.string().allow(''),
  price: moneyOut,
  photo_url: Joi.string().allow(null),
}).meta(openApiComponent('RoomServiceGuestMenuItem'));

const guestCategory = Joi.object({
  id: uuid,
  name: Joi.string(),
  items: Joi.array().items(guestItem),
}).meta(openApiComponent('RoomServiceGuestMenuCategory'));

export const guestConfigSchema = Joi.object({
  enabled: Joi.boolean(),
  open_now: Joi.boolean(),
  opens_at: Joi.string(),
  closes_at: Joi.string(),
  time_zone: Joi.string().description('The hotel’s time zone, in which the hours are'),
  delivery_fee: moneyOut,
  minimum_order: moneyOut,
  room_number: Joi.string(),
  room_served: Joi.boolean(),
  menu: Joi.array()
    .items(guestCategory)
    .description('Categories with available items, in the menu’s order (empty while disabled)'),
}).meta(openApiComponent('RoomServiceGuestConfig'));

export const placedOrderSchema = Joi.object({
  order: orderSchema,
  status_token: Joi.string().description(
    'Send it as `X-Order-Token` to read the order’s status (never stored: a retry with the same `Idempotency-Key` ' +
      'answers it again)',
  ),
}).meta(openApiComponent('RoomServicePlacedOrder'));
