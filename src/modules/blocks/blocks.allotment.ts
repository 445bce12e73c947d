import { addDays } from '../../platform/dates';
import { ValidationError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import { MAX_BLOCK_NIGHTS, type AllotmentItem, type BlockNight, type NightCount } from './blocks.types';

export const allotmentMessages = {
  order: 'Последняя ночь не может быть раньше первой',
  overlap: (night: string) => `Ночь ${night} этой категории уже задана другой строкой`,
  span: `Блок не может быть длиннее ${MAX_BLOCK_NIGHTS} ночей`,
  category: 'Категория не найдена',
  tooMany: (rooms: number) => `В категории всего номеров: ${rooms}`,
};

const itemError = (list: string, index: number, field: string, message: string) =>
  new ValidationError(message, [{ path: `body.${list}.${index}.${field}`, message }]);

/** The items as nights, one per category and night; overlapping items and spans over two years are refused. */
export function nightsOfAllotment(items: AllotmentItem[], list = 'allotment'): NightCount[] {
  const seen = new Set<string>();
  const nights: NightCount[] = [];
  const first = items.reduce((min, item) => (item.from < min ? item.from : min), items[0]?.from ?? '');
  items.forEach((item, index) => {
    if (item.to < item.from) throw itemError(list, index, 'to', allotmentMessages.order);
    if (daysBetween(first, item.to) >= MAX_BLOCK_NIGHTS) throw itemError(list, index, 'to', allotmentMessages.span);
    for (let day = 0; day <= daysBetween(item.from, item.to); day++) {
      const night = addDays(item.from, day);
      const key = `${item.category_id}:${night}`;
      if (seen.has(key)) throw itemError(list, index, 'from', allotmentMessages.overlap(night));
      seen.add(key);
      nights.push({ category_id: item.category_id, night, rooms: item.rooms });
    }
  });
  return nights;
}

/** Each item's category is the hotel's and has at least as many rooms as the item holds. */
export function assertFits(items: AllotmentItem[], categories: Map<string, { rooms: number }>): void {
  items.forEach((item, index) => {
    const category = categories.get(item.category_id);
    if (!category) throw itemError('allotment', index, 'category_id', allotmentMessages.category);
    if (item.rooms > category.rooms)
      throw itemError('allotment', index, 'rooms', allotmentMessages.tooMany(category.rooms));
  });
}

/**
 * The nights on which what the block holds grows, by category: every night it holds when it did not hold before
 * (an inquiry becoming tentative), else the nights whose units rose.
 */
export function grownNights(after: NightCount[], before: BlockNight[], heldBefore: boolean): Map<string, string[]> {
  const previous = new Map(before.map((night) => [`${night.category_id}:${night.night}`, night.rooms]));
  const grown = new Map<string, string[]>();
  for (const night of after) {
    const was = heldBefore ? (previous.get(`${night.category_id}:${night.night}`) ?? 0) : 0;
    if (night.rooms <= was) continue;
    const list = grown.get(night.category_id);
    if (list) list.push(night.night);
    else grown.set(night.category_id, [night.night]);
  }
  return grown;
}

/** The first of the nights `from`..`to` (exclusive) of the category that are not among `held`, if any. */
export function firstNotHeld(held: NightCount[], categoryId: string, from: string, to: string): string | undefined {
  const own = new Set(held.filter((night) => night.category_id === categoryId).map((night) => night.night));
  for (let day = 0; day < daysBetween(from, to); day++) if (!own.has(addDays(from, day))) return addDays(from, day);
  return undefined;
}

/** A night the block held with stays on it that the new allotment no longer gives. */
export function droppedWithStays(after: NightCount[], before: BlockNight[]): BlockNight | undefined {
  const kept = new Set(after.map((night) => `${night.category_id}:${night.night}`));
  return before.find((night) => night.picked_up > 0 && !kept.has(`${night.category_id}:${night.night}`));
}
