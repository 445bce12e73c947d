import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import {
  overviewSchema,
  runSchema,
  settingsBody,
  settingsSchema,
  snapshotParams,
  snapshotSchema,
} from './night-audit.schemas';
import { nightAuditMessages, type NightAuditService } from './night-audit.service';
import type { AuditSettingsInput } from './night-audit.types';

/** The books' figures are the owner's, the managers' and the accountant's; management runs and sets the audit. */
const AUDIT_READERS: readonly Role[] = ['hotel_admin', 'manager', 'accountant'];

const tags = ['Night audit'];
const base = '/api/hotels/:slug/night-audit';

export function nightAuditRoutes(audit: NightAuditService): RouteDefinition[] {
  return [
    defineHotelRoute({
      method: 'get',
      path: base,
      summary: 'The business date, the day the audit closes next, and the last runs',
      tags,
      access: { kind: 'hotel', roles: AUDIT_READERS },
      request: { params: slugParams },
      responses: { 200: { description: 'The audit', schema: overviewSchema } },
      async handler({ hotel, res }) {
        res.json(await audit.overview(hotel.id));
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: `${base}/settings`,
      summary: 'Whether the night audit runs on its own, and at which local hour',
      tags,
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: AUDIT_READERS },
      request: { params: slugParams },
      responses: { 200: { description: 'The settings', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await audit.getSettings(hotel.id));
      },
    }),
    defineHotelRoute<AuditSettingsInput>({
      method: 'put',
      path: `${base}/settings`,
      summary: 'Set whether the night audit runs on its own, and at which local hour',
      description:
        'The hotel’s Temporal schedule follows at the commit: made or changed to run at `hour` of the hotel’s time ' +
        'zone, or removed when `enabled` is false.',
      tags,
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: settingsBody },
      responses: { 200: { description: 'The settings', schema: settingsSchema } },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await audit.updateSettings(hotel, body, expectedVersion));
      },
    }),
    defineHotelRoute({
      method: 'post',
      path: `${base}/runs`,
      summary: 'Run the night audit now, for the day ready to close',
      description:
        'Audits `day_to_close`: posts its nights, handles its no-shows, marks stayover rooms for cleaning, closes ' +
        'it, writes its statistics and e-mails the daily report. Answers the run, going on (its progress in the ' +
        'audit’s `runs`).',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams },
      responses: {
        202: { description: 'The run, started', schema: runSchema },
        409: { description: `${nightAuditMessages.dayOpen('…')}, or ${nightAuditMessages.running.toLowerCase()}` },
      },
      async handler({ hotel, res }) {
        res.status(202).json(await audit.runByHand(hotel));
      },
    }),
    defineHotelRoute<unknown, unknown, { date: string }>({
      method: 'get',
      path: `${base}/snapshots/:date`,
      summary: 'The statistics of a day the audit closed (written once, never changed)',
      tags,
      access: { kind: 'hotel', roles: AUDIT_READERS },
      request: { params: snapshotParams },
      responses: {
        200: { description: 'The snapshot', schema: snapshotSchema },
        404: { description: nightAuditMessages.snapshotNotFound },
      },
      async handler({ hotel, params, res }) {
        res.json(await audit.snapshot(hotel.id, params.date));
      },
    }),
  ];
}
