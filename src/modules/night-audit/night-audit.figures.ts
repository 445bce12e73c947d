import { formatMoney } from '../../platform/money';
import type { Performance } from '../reports';
import type { AuditSnapshot, DayFacts } from './night-audit.types';

/**
 * A day's statistics as the night audit writes them: rooms, rooms sold, room revenue, ADR and RevPAR are the reports'
 * figures of that day (one definition, `reports.rules.ts`: rooms out of order not available, room revenue of the
 * room-night lines and their corrections only), occupancy the reports' percentage as a fraction; beside them the
 * day's arrivals, departures, no-shows and tourist tax.
 */
export function dayFigures(hotelId: string, date: string, day: Performance, facts: DayFacts): AuditSnapshot {
  return {
    hotel_id: hotelId,
    business_date: date,
    rooms: day.rooms_available + day.rooms_out_of_order,
    out_of_order: day.rooms_out_of_order,
    available: day.rooms_available,
    sold: day.rooms_sold,
    occupancy: (Number(day.occupancy) / 100).toFixed(4),
    room_revenue: day.room_revenue,
    adr: day.adr,
    revpar: day.revpar,
    arrivals: facts.arrivals,
    departures: facts.departures,
    no_shows: facts.noShows,
    tourist_tax: formatMoney(facts.touristTax),
  };
}
