import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { WidgetSettings, WidgetSettingsChanges } from './widget.types';

const table = settingsTable<WidgetSettings>('widget_settings');

export const widgetSettingsRepository = {
  ...table,

  /** knex would write a list as a PostgreSQL array: the jsonb services go as JSON text (the origins are text[]). */
  update: (db: DbOrTrx, hotelId: string, { services, ...changes }: WidgetSettingsChanges, expected?: ExpectedVersion) =>
    table.update(
      db,
      hotelId,
      { ...changes, ...(services && { services: JSON.stringify(services) as unknown as WidgetSettings['services'] }) },
      expected,
    ),
};
