import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { VERIFY_MAX } from './audit.constants';

const name = Joi.string().max(200);
const fields = Joi.object().unknown(true).allow(null);

const AUDIT_PAGE_DEFAULT = 50;

export const AUDIT_ACTOR_KINDS = ['staff', 'user', 'guest', 'agent', 'provider', 'visitor', 'job', 'system'] as const;

export const auditListQuery = Joi.object({
  resource: name.description('The table of the record (`bookings`, `guests`), or `request`'),
  resource_id: name.description("The record's id"),
  actor_kind: Joi.string().valid(...AUDIT_ACTOR_KINDS),
  actor_id: name.description("A staff member's or user's id, a job's workflow name, a guest's channel"),
  operation: name.description("The operationId of the route (`postHotelsBySlugBookings`), or a job's activity"),
  from: Joi.date().iso().description('Entries at or after this time'),
  to: Joi.date().iso().description('Entries before this time'),
  ...pageQueryKeys,
  // An entry carries its row's images: a smaller first page than the lists' default.
  limit: pageQueryKeys.limit
    .default(AUDIT_PAGE_DEFAULT)
    .description(`Entries per page (default ${AUDIT_PAGE_DEFAULT})`),
});

export const auditVerifyQuery = Joi.object({
  from_seq: Joi.number().integer().min(1).default(1).description('The first entry to check (default the first)'),
  limit: Joi.number()
    .integer()
    .min(1)
    .max(VERIFY_MAX)
    .default(VERIFY_MAX)
    .description(`Entries checked at most (default and at most ${VERIFY_MAX}); the answer says where to go on`),
});

export const auditEntrySchema = Joi.object({
  seq: Joi.number().integer().description("The entry's number in the hotel's chain"),
  at: Joi.date(),
  actor: Joi.object({
    kind: Joi.string().valid(...AUDIT_ACTOR_KINDS),
    id: Joi.string().allow(null).description("A user's id, a job's workflow, a public route's channel"),
    role: Joi.string().allow(null).description("A staff member's role"),
  }).meta(openApiComponent('AuditActor')),
  operation: Joi.string(),
  resource: Joi.string(),
  resource_id: Joi.string().allow(null),
  action: Joi.string().valid('insert', 'update', 'delete', 'request'),
  before: fields.description('The fields before (of an update, those that changed); personal data as "[masked]"'),
  after: fields.description('The fields after'),
  request_id: Joi.string().allow(null),
  idempotency_key: Joi.string().allow(null),
  address: Joi.string().allow(null),
  prev_hash: Joi.string().allow(null),
  hash: Joi.string(),
}).meta(openApiComponent('AuditEntry'));

export const chainVerdictSchema = Joi.object({
  intact: Joi.boolean().required(),
  entries: Joi.number().integer().description('Entries checked and found linked'),
  last_hash: Joi.string().allow(null).optional().description("When intact: the last entry's hash (null for none)"),
  next_from_seq: Joi.number()
    .integer()
    .optional()
    .description('When intact and the limit was reached before the head: the `from_seq` of the next call'),
  broken_at: Joi.number().integer().optional().description('When not: the number of the first broken link'),
  reason: Joi.string()
    .valid('content_changed', 'previous_hash_mismatch', 'entry_missing', 'head_mismatch')
    .optional()
    .description('When not: why'),
}).meta(openApiComponent('AuditChainVerdict'));
