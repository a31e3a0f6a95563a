-- Every sign-in records users.last_sign_in_at (the administration's user list shows it). That
-- write must not empty every server's caller cache (0005), as a session's last_seen_at does not
-- (0011): the users UPDATE trigger now notifies only when something other than last_sign_in_at
-- changed.
DROP TRIGGER users_caller_changes_update ON users;
--> statement-breakpoint
CREATE FUNCTION users_caller_changes_notify() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (
    SELECT 1
    FROM new_rows n
    LEFT JOIN old_rows o ON o.id = n.id
    WHERE o.id IS NULL OR (to_jsonb(n) - 'last_sign_in_at') IS DISTINCT FROM (to_jsonb(o) - 'last_sign_in_at')
  ) THEN
    PERFORM pg_notify('registry_caller_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_caller_changes_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_caller_changes_notify();
