import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import { reportCsv } from './tourist-tax.report';
import {
  exemptionBody,
  exemptionSchema,
  reportQuery,
  reportSchema,
  settingsSchema,
  updateSettingsBody,
} from './tourist-tax.schemas';
import { touristTaxMessages, type SettingsChanges, type TouristTaxService } from './tourist-tax.service';
import type { ExemptionInput } from './tourist-tax.types';

/** Those who sell and bill stays see how the tax is charged; management sets it. */
const TAX_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant'];
/** The desk records a guest's exemption with the document shown; management may too. */
const EXEMPTION_WRITERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
/** The declaration is the owner's, the managers' and the accountant's. */
export const REPORT_READERS: readonly Role[] = ['hotel_admin', 'manager', 'accountant'];

const tags = ['Tourist tax'];
const exemptionPath = '/api/hotels/:slug/bookings/:id/tourist-tax-exemption';
const reportDescription =
  'From the nights stayed in the month (`YYYY-MM`) before the hotel’s today, by stays checked in or out: the base ' +
  '(lodging without VAT) and the tax of the taxed nights, the exempt nights by category. Computed from each stay’s ' +
  'price shared equally among its nights and the current settings (rates above the law’s maximum for a night’s year ' +
  'are capped), until folios post the tax night by night.';

export function touristTaxRoutes(tax: TouristTaxService): RouteDefinition[] {
  return [
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/tourist-tax/settings',
      summary: 'Read the tourist tax settings',
      tags,
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: TAX_READERS },
      request: { params: slugParams },
      responses: { 200: { description: 'The settings', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await tax.getSettings(hotel.id));
      },
    }),
    defineHotelRoute<SettingsChanges>({
      method: 'patch',
      path: '/api/hotels/:slug/tourist-tax/settings',
      summary: 'Update the tourist tax settings',
      description:
        'Any of: `enabled`; `rate`, the percent of the nights no season covers (at most the legal maximum of the ' +
        'hotel’s current year: 1 % in 2025, 2 % in 2026, 3 % in 2027, 4 % in 2028, 5 % from 2029); `seasons`, the ' +
        'periods of the year with their own rate (non-overlapping, each within 366 nights, each rate at most the ' +
        'maximum of every year it covers; the list replaces the stored one); `vat_rate`, the VAT the lodging prices ' +
        'include (null: the rate of the receipts, `fiscal_vat` of the payment settings). A rate above the maximum ' +
        'is a 400 naming the year.',
      tags,
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: updateSettingsBody },
      responses: {
        200: { description: 'The updated settings', schema: settingsSchema },
        400: { description: 'A rate above the legal maximum of a year, or seasons overlapping: nothing changed' },
      },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await tax.updateSettings(hotel.id, body, expectedVersion));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: exemptionPath,
      summary: "Read a booking's tourist tax exemption",
      tags,
      access: { kind: 'hotel', roles: EXEMPTION_WRITERS },
      request: { params: idParams },
      responses: {
        200: { description: 'The exemption, its document in clear', schema: exemptionSchema },
        404: { description: touristTaxMessages.exemptionNotFound },
      },
      async handler({ hotel, params, res }) {
        res.json(await tax.exemptions.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<ExemptionInput, unknown, { id: string }>({
      method: 'put',
      path: exemptionPath,
      summary: "Mark a booking's guest exempt from the tourist tax",
      description:
        'The category (art. 418.4 of the Tax Code; `other_municipal` with its `description`) and the document shown: ' +
        'its kind, number (stored encrypted) and date. The stay’s nights from the document’s date to `valid_until` ' +
        '(every night without one) bear no tax. Replaces the exemption the booking had.',
      tags,
      access: { kind: 'hotel', roles: EXEMPTION_WRITERS },
      request: { params: idParams, body: exemptionBody },
      responses: {
        200: { description: 'The exemption', schema: exemptionSchema },
        404: { description: touristTaxMessages.bookingNotFound },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.json(await tax.exemptions.put(hotel.id, params.id, body, auth.sub));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'delete',
      path: exemptionPath,
      summary: "Withdraw a booking's tourist tax exemption",
      tags,
      access: { kind: 'hotel', roles: EXEMPTION_WRITERS },
      request: { params: idParams },
      responses: { 204: { description: 'Withdrawn' }, 404: { description: touristTaxMessages.exemptionNotFound } },
      async handler({ hotel, params, res }) {
        await tax.exemptions.remove(hotel.id, params.id);
        res.status(204).end();
      },
    }),
    defineHotelRoute<unknown, { month: string }>({
      method: 'get',
      path: '/api/hotels/:slug/tourist-tax/report',
      summary: 'The tourist tax of a month',
      description: reportDescription,
      tags,
      access: { kind: 'hotel', roles: REPORT_READERS },
      request: { params: slugParams, query: reportQuery },
      responses: { 200: { description: 'The month', schema: reportSchema } },
      async handler({ hotel, query, res }) {
        res.json(await tax.report(hotel.id, query.month));
      },
    }),
    defineHotelRoute<unknown, { month: string }>({
      method: 'get',
      path: '/api/hotels/:slug/tourist-tax/report.csv',
      summary: 'The tourist tax of a month, as CSV',
      description: `${reportDescription} One row of taxed nights, then one per exemption category (\`;\`-separated).`,
      tags,
      access: { kind: 'hotel', roles: REPORT_READERS },
      request: { params: slugParams, query: reportQuery },
      responses: { 200: { description: 'The month', media: ['text/csv'] } },
      async handler({ hotel, query, res }) {
        const csv = reportCsv(await tax.report(hotel.id, query.month));
        res.set('Content-Disposition', `attachment; filename="tourist-tax-${query.month}.csv"`);
        res.type('text/csv; charset=utf-8').send(csv);
      },
    }),
  ];
}
