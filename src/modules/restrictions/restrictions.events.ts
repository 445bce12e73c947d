import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { RESTRICTION_FIELDS, type RestrictionField } from './restrictions.types';

export interface RestrictionsChangedItem {
  category_id: string;
  tariff_id: string | null;
  from: string;
  to: string;
  /** The restrictions the write set or cleared over those nights. */
  fields: RestrictionField[];
}

export const restrictionsChanged = defineHotelEvent<{ items: RestrictionsChangedItem[]; nights: number }>(
  'restrictions_changed',
  "A bulk write changed the hotel's restrictions: the revenue calendar re-reads the ranges named (`items`, in the " +
    'order written; `nights` is how many per-night records the write touched).',
  Joi.object({
    items: Joi.array()
      .items(
        Joi.object({
          category_id: Joi.string().uuid().required(),
          tariff_id: Joi.string().uuid().allow(null).required(),
          from: Joi.string().isoDate().required(),
          to: Joi.string().isoDate().required(),
          fields: Joi.array()
            .items(Joi.string().valid(...RESTRICTION_FIELDS))
            .required(),
        }),
      )
      .required(),
    nights: Joi.number().integer().min(0).required(),
  }),
);
