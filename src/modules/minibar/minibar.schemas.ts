import Joi from 'joi';
import { calendarDate, dateSpan, MAX_WINDOW_DAYS, money, moneyOut } from '../../platform/http/schemas';
import { MANUAL_MOVEMENT_KINDS, MOVEMENT_KINDS } from './minibar.types';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';

/** The most units one movement or one consumption line may carry. */
export const MAX_QUANTITY = 100000;
/** The stock a manual movement may leave, either sign: far above any minibar, far below its integer column. */
export const MAX_STOCK = 1_000_000;

const itemFields = {
  name: Joi.string().trim().min(1).max(100),
  category: Joi.string().trim().max(100).allow(''),
  price: money,
  is_active: Joi.boolean(),
  sort_order: Joi.number().integer().min(-10000).max(10000),
};

export const createItemBody = Joi.object({
  ...itemFields,
  name: itemFields.name.required(),
  price: itemFields.price.required(),
});

export const updateItemBody = Joi.object(itemFields).min(1);

export const itemListQuery = Joi.object({ is_active: Joi.boolean(), category: Joi.string().trim().max(100).allow('') });

/** The lines of a minibar check, for the request schema of the housekeeping task that carries it. */
export const minibarCheckItems = Joi.array()
  .items(
    Joi.object({
      item_id: Joi.string().uuid().required(),
      quantity: Joi.number().integer().min(0).max(MAX_QUANTITY).required(),
    }),
  )
  .max(500)
  .unique('item_id');

export const movementBody = Joi.object({
  item_id: Joi.string().uuid().required(),
  kind: Joi.string()
    .valid(...MANUAL_MOVEMENT_KINDS)
    .required(),
  quantity: Joi.number()
    .integer()
    .max(MAX_QUANTITY)
    .required()
    .when('kind', { is: 'inventory', then: Joi.number().min(0), otherwise: Joi.number().min(1) }),
  note: Joi.string().trim().max(1000).allow(''),
});

const dateWindow = { from: calendarDate, to: calendarDate };
const windowSpan = dateSpan('from', 'to', { maxDays: MAX_WINDOW_DAYS });

export const movementListQuery = Joi.object({
  item_id: Joi.string().uuid(),
  kind: Joi.string().valid(...MOVEMENT_KINDS),
  ...dateWindow,
  ...pageQueryKeys,
}).custom(windowSpan);

export const consumptionListQuery = Joi.object({
  room_id: Joi.string().uuid(),
  task_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  ...dateWindow,
  ...pageQueryKeys,
}).custom(windowSpan);

export const itemSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  category: Joi.string().allow(''),
  price: moneyOut,
  is_active: Joi.boolean(),
  sort_order: Joi.number().integer(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('MinibarItem'));

export const stockLevelSchema = Joi.object({
  item_id: Joi.string().uuid(),
  name: Joi.string(),
  category: Joi.string().allow(''),
  price: moneyOut,
  is_active: Joi.boolean(),
  quantity: Joi.number().integer().description('Current stock; negative until a count corrects it'),
}).meta(openApiComponent('MinibarStockLevel'));

export const movementSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  item_id: Joi.string().uuid(),
  kind: Joi.string().valid(...MOVEMENT_KINDS),
  quantity: Joi.number().integer().description('Signed change applied to the stock'),
  counted_quantity: Joi.number().integer().allow(null).description('The counted stock, for `inventory`'),
  note: Joi.string().allow(''),
  created_by: Joi.string().uuid().allow(null),
  task_id: Joi.string().uuid().allow(null),
  created_at: Joi.date(),
}).meta(openApiComponent('MinibarMovement'));

export const postedMovementSchema = Joi.object({ movement: movementSchema, stock: stockLevelSchema });

export const consumptionSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  task_id: Joi.string().uuid(),
  room_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid().allow(null),
  item_id: Joi.string().uuid(),
  item_name: Joi.string(),
  item_category: Joi.string().allow(''),
  quantity: Joi.number().integer(),
  price_per_unit: moneyOut.description('Frozen when the consumption was first recorded'),
  amount: moneyOut.description('quantity × price_per_unit'),
  recorded_at: Joi.date(),
  recorded_by: Joi.string().uuid().allow(null),
}).meta(openApiComponent('MinibarConsumption'));
