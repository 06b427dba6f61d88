-- Every server process caches the session lookup for a few seconds (platform/session-cache.ts). A
-- change to what that lookup answers notifies every process on the channel paydesk_sessions at
-- commit, whichever code made it: 's:<session id>', 'u:<user id>', or '*' (forget everything).
CREATE OR REPLACE FUNCTION sessions_notify_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('paydesk_sessions', 's:' || OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_notify_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('paydesk_sessions', 'u:' || OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A large delete (a purge of old sessions) says "forget everything" once instead of a row each.
CREATE OR REPLACE FUNCTION sessions_notify_delete() RETURNS trigger AS $$
DECLARE
  gone bigint;
BEGIN
  SELECT count(*) INTO gone FROM deleted_sessions;
  IF gone > 100 THEN
    PERFORM pg_notify('paydesk_sessions', '*');
  ELSIF gone > 0 THEN
    PERFORM pg_notify('paydesk_sessions', 's:' || id) FROM deleted_sessions;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sessions_notify_all() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('paydesk_sessions', '*');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Row triggers with a WHEN: the per-minute last_seen_at write and sign-in bookkeeping call no function.
CREATE TRIGGER sessions_cache_update
  AFTER UPDATE OF revoked_at, token2_hash, token2_expires_at, pending_bind, expires_at, token_hash, user_id, public_id
  ON "sessions" FOR EACH ROW
  WHEN (
    (OLD.revoked_at, OLD.token2_hash, OLD.token2_expires_at, OLD.pending_bind, OLD.expires_at, OLD.token_hash, OLD.user_id, OLD.public_id)
    IS DISTINCT FROM
    (NEW.revoked_at, NEW.token2_hash, NEW.token2_expires_at, NEW.pending_bind, NEW.expires_at, NEW.token_hash, NEW.user_id, NEW.public_id)
  )
  EXECUTE FUNCTION sessions_notify_change();
--> statement-breakpoint
CREATE TRIGGER sessions_cache_delete
  AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS deleted_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_delete();
--> statement-breakpoint
CREATE TRIGGER sessions_cache_truncate
  AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_all();
--> statement-breakpoint
CREATE TRIGGER users_cache_update
  AFTER UPDATE OF role, nickname, account, parent_id, deleted_at
  ON "users" FOR EACH ROW
  WHEN (
    (OLD.role, OLD.nickname, OLD.account, OLD.parent_id, OLD.deleted_at)
    IS DISTINCT FROM
    (NEW.role, NEW.nickname, NEW.account, NEW.parent_id, NEW.deleted_at)
  )
  EXECUTE FUNCTION users_notify_change();
--> statement-breakpoint
CREATE TRIGGER users_cache_delete
  AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION users_notify_change();
--> statement-breakpoint
CREATE TRIGGER users_cache_truncate
  AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_all();
