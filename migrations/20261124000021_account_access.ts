import type { Knex } from 'knex';

/**
 * Access tokens are stateless, so revoking them needs state they can be checked against: `session_version` is
 * copied into each access token (`sv`) and bumped by everything that must end existing sessions (deactivation,
 * password reset, "log out everywhere"). Every API replica keeps these per-user facts in a cache; the trigger tells
 * them, through `pg_notify` at commit, the account's new facts (or that it was deleted), so a revocation applies at
 * once, without a query.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('session_version').notNullable().defaultTo(0);
  });
  await knex.raw(`
    CREATE FUNCTION users_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('account_access', json_build_object('id', OLD.id, 'deleted', true)::text);
      ELSE
        PERFORM pg_notify('account_access',
          json_build_object('id', NEW.id, 'active', NEW.active, 'sessionVersion', NEW.session_version)::text);
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER users_access_updated AFTER UPDATE OF active, session_version ON users
      FOR EACH ROW
      WHEN (OLD.active IS DISTINCT FROM NEW.active OR OLD.session_version IS DISTINCT FROM NEW.session_version)
      EXECUTE FUNCTION users_access_changed()`);
  await knex.raw(`
    CREATE TRIGGER users_access_deleted AFTER DELETE ON users
      FOR EACH ROW EXECUTE FUNCTION users_access_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER users_access_deleted ON users');
  await knex.raw('DROP TRIGGER users_access_updated ON users');
  await knex.raw('DROP FUNCTION users_access_changed()');
  await knex.schema.alterTable('users', (t) => t.dropColumn('session_version'));
}
