import { randomInt } from 'node:crypto';
import { day, type ModuleFixtures } from '../../platform/fixtures';
import { dayFigures } from './night-audit.figures';
import { snapshotsRepository } from './night-audit.repository';

/**
 * A closed day's snapshot (written by the audit's workflow, no route makes one: a day of its own far in the past, so
 * two hotels' seeds name different days), and the audit's hour set to 04:00 but left off: switched on, it would refuse
 * the folios' close by hand (the gates' own write of the folios) and leave a schedule per seeded hotel in Temporal.
 */
export const nightAuditFixtures: ModuleFixtures = {
  records: { audit_snapshot: { paths: ['/api/hotels/:slug/night-audit/snapshots/:date'] } },
  async seed({ hotelId, request, db }) {
    const date = day(-randomInt(1, 3000), '2010-01-01');
    const nights = { period: date, from: date, to: date, rooms_available: 1, rooms_out_of_order: 0, rooms_sold: 1 };
    const figures = { occupancy: '100.00', room_revenue: '5000.00', room_discounts: '0.00', adr: '5000.00' };
    const performance = { ...nights, ...figures, revpar: '5000.00', day_use_stays: 0, day_use_revenue: '0.00' };
    const facts = { touristTax: 10000n, arrivals: 1, departures: 0, noShows: 0 };
    await snapshotsRepository.insert(db, hotelId, dayFigures(hotelId, date, performance, facts));
    await request('/night-audit/settings', { method: 'put', body: { enabled: false, hour: 4 } });
    return { audit_snapshot: date };
  },
};
