import { firstFreeSlug, slugify } from '../../src/modules/hotels/hotels.slug';

describe('slugify (spec rule 3)', () => {
  it.each([
    ['Grand Hotel', 'grand-hotel'],
    ['Гостиница Ёлка', 'gostinitsa-yolka'],
    ['Жемчужина Юга', 'zhemchuzhina-yuga'],
    ['Щука и Ёрш', 'schuka-i-yorsh'],
    ['Подъезд Мыс', 'podezd-mys'],
    ['Хижина Цапли Чайки Шторм Эхо Яр', 'hizhina-tsapli-chayki-shtorm-eho-yar'],
    ['  Spaces   everywhere  ', 'spaces-everywhere'],
    ['Hotel -- double---hyphen', 'hotel-double-hyphen'],
    ['Café "Royal" № 1!', 'caf-royal-1'],
    ['Отель 5*', 'otel-5'],
    ['!!!', 'hotel'],
    ['', 'hotel'],
  ])('%j -> %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('cuts to 50 characters', () => {
    const slug = slugify('a'.repeat(30) + ' ' + 'b'.repeat(30));
    expect(slug).toHaveLength(50);
    expect(slug).toBe('a'.repeat(30) + '-' + 'b'.repeat(19));
  });
});

describe('firstFreeSlug', () => {
  it('keeps a free base', () => {
    expect(firstFreeSlug('grand', ['grand-2'])).toBe('grand');
  });

  it('appends -2, -3, ... until free', () => {
    expect(firstFreeSlug('grand', ['grand'])).toBe('grand-2');
    expect(firstFreeSlug('grand', ['grand', 'grand-2', 'grand-3'])).toBe('grand-4');
  });
});
