import type { DbOrTrx } from '../../platform/db/knex';
import type { AccessTokenPayload } from '../../platform/http/access-token';
import type { AccountEmailPurpose } from '../../../workflows/contracts/accounts';

export interface SessionRow {
  id: string;
  user_id: string;
  payload: AccessTokenPayload;
  expires_at: Date;
}

export const sessionsRepository = {
  async insert(
    db: DbOrTrx,
    session: { userId: string; tokenHash: string; payload: AccessTokenPayload; ttlDays: number },
  ) {
    await db('sessions').insert({
      user_id: session.userId,
      token_hash: session.tokenHash,
      payload: JSON.stringify(session.payload),
      expires_at: db.raw('now() + make_interval(days => ?)', [session.ttlDays]),
    });
  },

  async findValid(db: DbOrTrx, tokenHash: string): Promise<SessionRow | undefined> {
    return db('sessions')
      .select('id', 'user_id', 'payload', 'expires_at')
      .where({ token_hash: tokenHash })
      .andWhere('expires_at', '>', db.fn.now())
      .first();
  },

  async updatePayload(db: DbOrTrx, sessionId: string, payload: AccessTokenPayload): Promise<void> {
    await db('sessions')
      .where({ id: sessionId })
      .update({ payload: JSON.stringify(payload) });
  },

  async deleteByHash(db: DbOrTrx, tokenHash: string): Promise<void> {
    await db('sessions').where({ token_hash: tokenHash }).delete();
  },

  async deleteAllForUser(db: DbOrTrx, userId: string): Promise<void> {
    await db('sessions').where({ user_id: userId }).delete();
  },

  /** Sessions past their lifetime can never refresh again; removing them keeps the table small. */
  async deleteExpired(db: DbOrTrx): Promise<number> {
    return db('sessions').where('expires_at', '<', db.fn.now()).delete();
  },
};

/** What resend-confirmation and forgot-password were asked, until the background step has handled it. */
export const accountRequestsRepository = {
  async insert(db: DbOrTrx, purpose: AccountEmailPurpose, email: string): Promise<string> {
    const [{ id }] = await db('account_requests').insert({ purpose, email }).returning('id');
    return id as string;
  },

  /** Removes the request and returns it: a second attempt finds nothing to do. */
  async take(db: DbOrTrx, id: string): Promise<{ purpose: AccountEmailPurpose; email: string } | undefined> {
    const [row] = await db('account_requests').where({ id }).delete().returning(['purpose', 'email']);
    return row as { purpose: AccountEmailPurpose; email: string } | undefined;
  },
};
