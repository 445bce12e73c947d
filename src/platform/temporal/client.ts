import { Client, Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

export const searchAttributeKeys = {
  HotelSlug: defineSearchAttributeKey('HotelSlug', SearchAttributeType.KEYWORD),
  BookingId: defineSearchAttributeKey('BookingId', SearchAttributeType.KEYWORD),
};

export interface TemporalSettings {
  address: string;
  namespace: string;
}

export async function connectTemporal(settings: TemporalSettings): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address: settings.address, connectTimeout: '5 seconds' });
  return { connection, client: new Client({ connection, namespace: settings.namespace }) };
}

/** Registers the search attributes operators filter by; an attribute that already exists is fine. */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.keys(searchAttributeKeys).filter((name) => !customAttributes?.[name]);
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      missing.map((name) => [name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
}
