import { divideMoney, formatMoney } from '../../platform/money';
import type { AuditSnapshot, DayFacts } from './night-audit.types';

/**
 * A day's figures, as the night audit writes them: rooms out of order (under maintenance or closed) are not available;
 * occupancy = sold / available (4 decimals), ADR = room revenue / sold, RevPAR = room revenue / available; room
 * revenue is the day's room night lines only (no tax, no services).
 */
export function dayFigures(hotelId: string, date: string, facts: DayFacts): AuditSnapshot {
  const available = Math.max(facts.rooms - facts.outOfOrder, 0);
  return {
    hotel_id: hotelId,
    business_date: date,
    rooms: facts.rooms,
    out_of_order: facts.outOfOrder,
    available,
    sold: facts.sold,
    occupancy: available > 0 ? (facts.sold / available).toFixed(4) : '0.0000',
    room_revenue: formatMoney(facts.roomRevenue),
    adr: formatMoney(divideMoney(facts.roomRevenue, facts.sold)),
    revpar: formatMoney(divideMoney(facts.roomRevenue, available)),
    arrivals: facts.arrivals,
    departures: facts.departures,
    no_shows: facts.noShows,
    tourist_tax: formatMoney(facts.touristTax),
  };
}
