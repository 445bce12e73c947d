import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * Who is changing the hotel's data, as the audit log records it (docs/decisions/audit-log.md). The database's audit
 * triggers read it from the connection's `audit.context` setting, which `recordActors` keeps equal to the context of
 * the code that acquired the connection: a request (set by mount from the route and the caller) or a job (set by the
 * activity boundary from the workflow). Code that sets none is recorded as `system`.
 */
export type AuditActor =
  | { kind: 'staff'; id: string; role: string }
  | { kind: 'user'; id: string }
  /**
   * A public route's caller, as the route's definition declares it (`caller`, else a guest: the widget, a room-service
   * code...), an agent, a provider or a visitor; `via` is the route's tag.
   */
  | { kind: 'guest' | 'agent' | 'provider' | 'visitor'; via: string }
  | { kind: 'job'; name: string };

export interface AuditContext {
  actor: AuditActor;
  /** The route's operationId, or the activity a job ran. */
  operation: string;
  requestId?: string;
  idempotencyKey?: string;
  address?: string;
}

const storage = new AsyncLocalStorage<AuditContext>();

/** Runs `work` with `context` as the author of every change it makes (and of what it awaits). */
export function runAsActor<T>(context: AuditContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentAuditContext(): AuditContext | undefined {
  return storage.getStore();
}

/** The setting's text as the triggers read it: the context in JSON, or empty for none. */
function settingOf(context: AuditContext | undefined): string {
  return context ? JSON.stringify(context) : '';
}

interface Connection {
  query(text: string, values: unknown[]): Promise<unknown>;
  /** What this connection's `audit.context` holds now (undefined: never set, so empty). */
  auditSetting?: string;
}

/**
 * Makes every connection `db` hands out carry the current audit context: at acquisition, when the connection's
 * setting differs from the context of the code acquiring it, one `set_config` puts it right (session-wide, so it also
 * covers statements outside a transaction; a transaction acquires its connection once, before `BEGIN`). A connection
 * reused by the same request, or by code without a context after code without one, costs nothing.
 */
export function recordActors(db: Knex): Knex {
  const client = db.client as {
    acquireConnection(): Promise<Connection>;
    releaseConnection(connection: Connection): Promise<unknown>;
  };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = async () => {
    const connection = await acquire();
    const setting = settingOf(storage.getStore());
    if ((connection.auditSetting ?? '') === setting) return connection;
    try {
      await connection.query("SELECT set_config('audit.context', $1, false)", [setting]);
    } catch (error) {
      await client.releaseConnection(connection);
      throw error;
    }
    connection.auditSetting = setting;
    return connection;
  };
  return db;
}
