-- Servers keep a short-lived cache of who is calling (session, identity, registry user, membership
-- of the named organization; src/server/identity/caller-cache.ts). Any change to those tables
-- tells every server to empty it: NOTIFY is sent at commit, to every listening connection.
-- Statement-level, and only when rows changed (sign-in's purge of expired sessions mostly deletes
-- none). New sessions and new organizations are left out: nothing cached can depend on them.
CREATE FUNCTION caller_changes_notify() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('registry_caller_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION caller_changes_notify_if_any() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed) THEN
    PERFORM pg_notify('registry_caller_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_caller_changes_update AFTER UPDATE ON sessions REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER sessions_caller_changes_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER sessions_caller_changes_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify();
--> statement-breakpoint
CREATE TRIGGER identities_caller_changes_update AFTER UPDATE ON identities REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER identities_caller_changes_delete AFTER DELETE ON identities REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER identities_caller_changes_truncate AFTER TRUNCATE ON identities
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify();
--> statement-breakpoint
CREATE TRIGGER users_caller_changes_insert AFTER INSERT ON users REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER users_caller_changes_update AFTER UPDATE ON users REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER users_caller_changes_delete AFTER DELETE ON users REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER users_caller_changes_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify();
--> statement-breakpoint
CREATE TRIGGER memberships_caller_changes_insert AFTER INSERT ON memberships REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER memberships_caller_changes_update AFTER UPDATE ON memberships REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER memberships_caller_changes_delete AFTER DELETE ON memberships REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER memberships_caller_changes_truncate AFTER TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify();
--> statement-breakpoint
CREATE TRIGGER participants_caller_changes_update AFTER UPDATE ON participants REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER participants_caller_changes_delete AFTER DELETE ON participants REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify_if_any();
--> statement-breakpoint
CREATE TRIGGER participants_caller_changes_truncate AFTER TRUNCATE ON participants
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify();
