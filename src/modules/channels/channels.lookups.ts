import type { ChannelMapping } from './channels.types';

/** Our category of a channel's room type, by the connection's mapping; undefined when it is not mapped. */
export function categoryOfRoomType(mapping: ChannelMapping, roomTypeId: string): string | undefined {
  return mapping.room_types.find((item) => item.room_type_id === roomTypeId)?.category_id;
}

/** Our tariff of a channel's rate plan, by the connection's mapping; undefined when it is not mapped. */
export function tariffOfRatePlan(mapping: ChannelMapping, ratePlanId: string): string | undefined {
  return mapping.rate_plans.find((item) => item.rate_plan_id === ratePlanId)?.tariff_id;
}
