import type { Request, Response } from 'express';
import type { Knex } from 'knex';
import type { AuditActor, AuditContext } from '../db/audit-context';
import { requestLogFields } from '../observability/request-context';
import type { AccessTokenPayload } from './access-token';
import { operationIdOf, type RouteDefinition } from './route';

/**
 * The audit log's side of a route declaration (docs/decisions/audit-log.md): a route that changes something runs its
 * handler as its caller, so every row it changes is recorded (by the database's triggers) with the caller, the
 * operationId, the request id, the `Idempotency-Key` and the client's address; a success that changed no audited row
 * still leaves one entry naming the operation.
 */

/** A public route's caller is the one its declaration names (a guest unless it says otherwise), via its tag. */
function actorOf(route: RouteDefinition, auth: AccessTokenPayload | undefined): AuditActor {
  if (!auth) return { kind: route.caller ?? 'guest', via: route.tags[0] ?? 'public' };
  if (route.access.kind === 'hotel') return { kind: 'staff', id: auth.sub, role: auth.role };
  return { kind: 'user', id: auth.sub };
}

/** The caller and operation a changing route's work is recorded as; none for reads and routes that opt out. */
export function auditContextOf(
  route: RouteDefinition,
  req: Request,
  auth: AccessTokenPayload | undefined,
): AuditContext | undefined {
  if (route.method === 'get' || route.audit) return undefined;
  const key = req.get('idempotency-key');
  return {
    actor: actorOf(route, auth),
    operation: operationIdOf(route),
    requestId: requestLogFields().reqId,
    ...(key && { idempotencyKey: key.slice(0, 255) }),
    ...(req.ip && { address: req.ip }),
  };
}

/**
 * After a handler of `hotelId` succeeded: one entry naming the operation unless its rows were recorded already (the
 * `audit_record_request` function of migration 104 looks for the request's entries first).
 */
export async function recordRequest(db: Knex, hotelId: string, context: AuditContext, res: Response): Promise<void> {
  if (res.statusCode >= 400 || !context.requestId) return;
  await db.raw('SELECT audit_record_request(?, ?::jsonb)', [hotelId, JSON.stringify(context)]);
}
