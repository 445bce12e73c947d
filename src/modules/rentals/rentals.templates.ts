/** The three draft rental objects every new hotel starts with (spec: "Rental object"). */
// prettier-ignore
export const RENTAL_TEMPLATES = [
  { name: 'Теннисный корт', icon: 'tennis', price_per_hour: 1500, price_per_day: 8000, open_hour: 8, close_hour: 22, sort_order: 1 },
  { name: 'Баня / сауна', icon: 'sauna', price_per_hour: 2500, price_per_day: 12000, open_hour: 10, close_hour: 23, sort_order: 2 },
  { name: 'Конференц-зал', icon: 'conference', price_per_hour: 3000, price_per_day: 15000, open_hour: 9, close_hour: 20, sort_order: 3 },
] as const;
