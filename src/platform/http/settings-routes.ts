import type { ObjectSchema, Schema } from 'joi';
import type { ExpectedVersion } from './concurrency';
import { defineHotelRoute, type ResponseSpec, type RouteDefinition } from './route';
import type { Role } from './roles';
import { slugParams } from './schemas';

/** What a module's per-hotel settings offer its routes: read the row, change part of it at a version. */
export interface SettingsAccess<Changes> {
  get(hotelId: string): Promise<unknown>;
  update(hotelId: string, changes: Changes, expected?: ExpectedVersion): Promise<unknown>;
}

export interface SettingsRoutesOptions<Changes> {
  /** Express path, e.g. `/api/hotels/:slug/wifi-settings`. */
  path: string;
  /** What the summaries name: "Read the {subject}", "Change the {subject}". */
  subject: string;
  tags: string[];
  readers: readonly Role[];
  writers: readonly Role[];
  schema: Schema;
  changes: ObjectSchema;
  /** The fields and their bounds, for the change. */
  changeDescription: string;
  readDescription?: string;
  /** What the answer is called, `Settings` unless told. */
  answer?: string;
  /** The change's refusals beside the framework's (400, 412). */
  refusals?: Record<number, ResponseSpec>;
  settings: SettingsAccess<Changes>;
}

/** A module's settings routes: GET and a versioned PATCH (`ETag` / `If-Match`), one declaration for every module. */
export function settingsRoutes<Changes>(options: SettingsRoutesOptions<Changes>): RouteDefinition[] {
  const { path, subject, tags, schema, settings } = options;
  const answered = { 200: { description: options.answer ?? 'Settings', schema } };
  return [
    defineHotelRoute({
      method: 'get',
      path,
      summary: `Read the ${subject}`,
      ...(options.readDescription && { description: options.readDescription }),
      tags,
      access: { kind: 'hotel', roles: options.readers },
      concurrency: 'if-match',
      request: { params: slugParams },
      responses: answered,
      async handler({ hotel, res }) {
        res.json(await settings.get(hotel.id));
      },
    }),
    defineHotelRoute<Changes>({
      method: 'patch',
      path,
      summary: `Change the ${subject}`,
      description: options.changeDescription,
      tags,
      access: { kind: 'hotel', roles: options.writers },
      concurrency: 'if-match',
      request: { params: slugParams, body: options.changes },
      responses: { ...answered, ...options.refusals },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await settings.update(hotel.id, body, expectedVersion));
      },
    }),
  ];
}
