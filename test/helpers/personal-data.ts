import { Client } from 'minio';
import type { TestApp } from './app';

/**
 * Where a value still lives in the database: every text, character, JSON and array column of every table, cast to
 * text and searched case-insensitively (the query is built from information_schema, so a new table is searched too).
 */
export async function databaseHits(t: TestApp, needles: string[]): Promise<string[]> {
  const { rows: columns } = await t.db.raw<{ rows: { table_name: string; column_name: string }[] }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'USER-DEFINED', 'tsvector')`,
  );
  const patterns = needles.map((needle) => `%${needle.replace(/[\\%_]/g, '\\$&')}%`);
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [{ count }] = await t.db(table).whereRaw('??::text ILIKE ANY (?)', [column, patterns]).count({ count: '*' });
    if (Number(count) > 0) hits.push(`${table}.${column}`);
  }
  return hits;
}

/** The keys of the objects in the test stack's bucket whose bytes hold one of the values. */
export async function objectStoreHits(t: TestApp, needles: string[]): Promise<string[]> {
  const { endpoint, region, bucket, accessKey, secretKey } = t.config.storage;
  const url = new URL(endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey,
    secretKey,
    region,
    pathStyle: true,
  });
  const hits: string[] = [];
  for await (const item of client.listObjectsV2(bucket, '', true) as AsyncIterable<{ name?: string }>) {
    if (!item.name) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await client.getObject(bucket, item.name)) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8').toLowerCase();
    if (needles.some((needle) => text.includes(needle.toLowerCase()))) hits.push(item.name);
  }
  return hits;
}
