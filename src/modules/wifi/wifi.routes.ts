import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineHotelRoute, defineRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import {
  authorizationSchema,
  portalHeaders,
  portalSecretSchema,
  settingsChanges,
  settingsSchema,
  verifyBody,
} from './wifi.schemas';
import { portalUnauthorized } from './wifi.messages';
import type { WifiService } from './wifi.service';
import type { VerifyInput, WifiSettingsChanges } from './wifi.types';
import { answersNewSecret } from '../../platform/http/idempotency-key';

/** The desk answers guests' Wi-Fi questions: it sees the settings (never the secret) and changes nothing. */
const SETTINGS_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const path = '/api/hotels/:slug/wifi-settings';
const tags = ['Wi-Fi'];

export function wifiRoutes(wifi: WifiService): RouteDefinition[] {
  return [
    ...settingsRoutes<WifiSettingsChanges>({
      path,
      subject: 'Wi-Fi captive-portal settings',
      tags,
      readers: SETTINGS_READERS,
      writers: HOTEL_MANAGEMENT,
      schema: settingsSchema,
      changes: settingsChanges,
      readDescription: 'The portal secret is never answered: `portal_secret_set` and its hint say there is one.',
      changeDescription:
        '`enabled` (guests may get online through the portal), `auth_method` (`room+lastname`, `room+birthdate`, ' +
        '`room+any`, `room_only`), `session_hours` (1 to 720; never past the stay), `devices_per_stay` (1 to 20).',
      settings: wifi.settings,
    }),
    defineHotelRoute({
      method: 'post',
      path: `${path}/portal-secret`,
      idempotency: answersNewSecret,
      summary: "Issue the captive-portal controller's secret",
      description:
        'A new random secret, answered this once (only its digest is kept); the one before stops working at once. ' +
        'The controller sends it as `Authorization: Bearer <secret>` to `POST /api/wifi-auth/verify`.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams },
      responses: { 201: { description: 'The new secret', schema: portalSecretSchema } },
      async handler({ hotel, res }) {
        res.status(201).json(await wifi.settings.newPortalSecret(hotel.id));
      },
    }),
    defineRoute<VerifyInput>({
      method: 'post',
      path: '/api/wifi-auth/verify',
      summary: 'May this guest get online? (captive-portal controller)',
      description:
        "Called by the hotel's captive-portal controller with its portal secret (`Authorization: Bearer`) for the " +
        'hotel named by `hotel` (slug). Lets a device in when a stay in `room` is checked in now and what the guest ' +
        "typed proves it as the hotel's `auth_method` asks (surnames in Cyrillic or any usual Latin spelling). " +
        'Answers nothing personal. Wrong guesses are limited: 5 per room (all names of no room of the hotel share one ' +
        "such budget) and 30 per device (`client_mac`, else the caller's address) in 15 minutes, then 429 even for a " +
        'right one; right answers are not counted.',
      tags,
      access: { kind: 'public' },
      oneAnswer: { refusal: portalUnauthorized, inputs: ['headers.authorization', 'body.hotel'] },
      request: { body: verifyBody, headers: portalHeaders },
      responses: {
        200: { description: 'Let in', schema: authorizationSchema },
        401: { description: 'No or a wrong portal secret for that hotel (`wifi_portal_unauthorized`)' },
        403: {
          description:
            '`{ authorized: false, reason }`: `wifi_not_authorized` (no such room, nobody checked in now, or what ' +
            'was typed does not match: one answer), `wifi_disabled`, `wifi_device_limit`',
        },
        429: { description: 'Too many wrong guesses for the room or from the device (`Retry-After`)' },
      },
      async handler({ body, headers, req, res }) {
        const caller = { authorization: headers.authorization, address: req.ip ?? 'unknown' };
        res.json(await wifi.verify(body, caller));
      },
    }),
  ];
}
