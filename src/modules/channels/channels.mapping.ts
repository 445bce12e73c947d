import { BusinessRuleError } from '../../platform/errors';
import type { PricingService } from '../pricing';
import type { RoomsService } from '../rooms';
import type { ChannelListing } from './channels.manager';
import type { ChannelMapping, MappingInput } from './channels.types';

export const mappingMessages = {
  ours: 'В сопоставлении указаны категории или тарифы, которых в отеле нет',
  twice: 'Каждый тип номера, категория и тариф канала сопоставляются не больше одного раза',
  theirs: 'В канале нет указанных типов номеров или тарифов',
  unmappedRoomType: 'Тариф канала продаёт тип номера, не сопоставленный с категорией',
};

const repeated = (values: string[]) => [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];

export interface MappingChecks {
  rooms: Pick<RoomsService, 'findCategory'>;
  pricing: Pick<PricingService, 'findTariff'>;
}

/** Our side: every category and tariff named is the hotel's; nothing mapped twice (a category sold twice oversells). */
export async function checkOurSide(checks: MappingChecks, hotelId: string, mapping: MappingInput): Promise<void> {
  const twice = [
    ...repeated(mapping.room_types.map((item) => item.room_type_id)),
    ...repeated(mapping.room_types.map((item) => item.category_id)),
    ...repeated(mapping.rate_plans.map((item) => item.rate_plan_id)),
  ];
  if (twice.length > 0) throw new BusinessRuleError(mappingMessages.twice, twice, 'channel_mapping_repeated');
  const unknown: string[] = [];
  for (const { category_id } of mapping.room_types)
    if (!(await checks.rooms.findCategory(hotelId, category_id))) unknown.push(`category_id ${category_id}`);
  for (const tariffId of new Set(mapping.rate_plans.map((item) => item.tariff_id)))
    if (!(await checks.pricing.findTariff(hotelId, tariffId))) unknown.push(`tariff_id ${tariffId}`);
  if (unknown.length > 0) throw new BusinessRuleError(mappingMessages.ours, unknown, 'channel_mapping_not_ours');
}

/**
 * Their side: every room type and rate plan named is one the channel lists for the property (422 naming those it
 * does not), and every rate plan sells a mapped room type. Answers the mapping as kept (each rate plan with its room
 * type).
 */
export function checkTheirSide(listing: ChannelListing, mapping: MappingInput): ChannelMapping {
  const roomTypes = new Set(listing.roomTypes.map((item) => item.id));
  const plans = new Map(listing.ratePlans.map((item) => [item.id, item]));
  const unknown = [
    ...mapping.room_types
      .filter((item) => !roomTypes.has(item.room_type_id))
      .map((i) => `room_type_id ${i.room_type_id}`),
    ...mapping.rate_plans.filter((item) => !plans.has(item.rate_plan_id)).map((i) => `rate_plan_id ${i.rate_plan_id}`),
  ];
  if (unknown.length > 0) throw new BusinessRuleError(mappingMessages.theirs, unknown, 'channel_mapping_unknown');
  const mapped = new Set(mapping.room_types.map((item) => item.room_type_id));
  const rate_plans = mapping.rate_plans.map((item) => ({
    ...item,
    room_type_id: plans.get(item.rate_plan_id)!.room_type_id ?? '',
  }));
  const unmapped = rate_plans
    .filter((item) => !mapped.has(item.room_type_id))
    .map((i) => `rate_plan_id ${i.rate_plan_id}`);
  if (unmapped.length > 0)
    throw new BusinessRuleError(mappingMessages.unmappedRoomType, unmapped, 'channel_mapping_unmapped_room_type');
  return { room_types: mapping.room_types, rate_plans };
}
