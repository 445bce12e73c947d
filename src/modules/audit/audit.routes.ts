import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import { auditEntrySchema, auditListQuery, auditVerifyQuery, chainVerdictSchema } from './audit.schemas';
import type { AuditService } from './audit.service';
import type { AuditFilter } from './audit.types';

const base = '/api/hotels/:slug/audit';
const tags = ['Audit log'];
const READERS: readonly Role[] = ['hotel_admin', 'manager', 'security'];

export function auditRoutes(service: AuditService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, AuditFilter & PageRequest>({
      method: 'get',
      path: base,
      summary: 'Read the audit log',
      description:
        'Every change to the hotel’s records, newest first: who (`actor`), the operation, the record, the fields ' +
        'before and after (personal data and secrets as "[masked]"), the request id, `Idempotency-Key` and address. ' +
        'Filters: `resource` and `resource_id`, `actor_kind` and `actor_id`, `operation`, and `from`/`to` times.',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: auditListQuery },
      responses: {
        200: { description: 'Entries', schema: Joi.array().items(auditEntrySchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await service.list(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, { from_seq: number; limit: number }>({
      method: 'get',
      path: `${base}/verify`,
      summary: 'Verify the audit log’s chain',
      description:
        'Each entry’s `hash` is sha256 of the previous entry’s hash and its own content. Walks the hotel’s entries ' +
        'from the first and answers whether the chain is intact, or the number of the first entry whose link is ' +
        'broken (`broken_at`) and why: its content changed, it does not name the previous hash, an entry is missing, ' +
        'or the last entries are gone (`head_mismatch`). It checks up to the head as it was when the call began, at ' +
        'most `limit` entries from `from_seq`: a longer chain is checked by calls that go on from `next_from_seq`.',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: auditVerifyQuery },
      responses: { 200: { description: 'The verdict', schema: chainVerdictSchema } },
      async handler({ hotel, query, res }) {
        res.json(await service.verify(hotel.id, query.from_seq, query.limit));
      },
    }),
  ];
}
