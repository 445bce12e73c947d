import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
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

/**
 * The API process's connection: lazy, so the API serves requests while Temporal is briefly unavailable (only `/ready`
 * and the workflows' queries, each bounded in time, report it); dialling gives up after 2 s.
 */
export const lazyTemporalConnection = (settings: TemporalSettings) =>
  Connection.lazy({ address: settings.address, connectTimeout: '2 seconds' });

/** `interceptors` e.g. carry the caller's trace into the workflows it starts (see observability/worker-tracing.ts). */
export async function connectTemporal(
  settings: TemporalSettings,
  interceptors: WorkflowClientInterceptor[] = [],
): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address: settings.address, connectTimeout: '5 seconds' });
  const client = new Client({ connection, namespace: settings.namespace, interceptors: { workflow: interceptors } });
  return { connection, client };
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
