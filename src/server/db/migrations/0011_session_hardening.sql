-- Issue 8, defects 2, 6 and 8: idle sessions, the per-account sign-in throttle and security events.
--
-- Sessions slide: last_seen_at is the session's last recorded use (written at most once a minute
-- per session, src/server/identity/session-activity.ts); a session unused for the idle timeout is
-- dead. That write must not empty every server's caller cache, so the sessions UPDATE trigger of
-- 0005 now notifies only when something other than last_seen_at changed.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
--> statement-breakpoint
DROP TRIGGER sessions_caller_changes_update ON sessions;
--> statement-breakpoint
CREATE FUNCTION sessions_caller_changes_notify() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (
    SELECT 1
    FROM new_rows n
    LEFT JOIN old_rows o ON o.token_hash = n.token_hash
    WHERE o.token_hash IS NULL OR (to_jsonb(n) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(o) - 'last_seen_at')
  ) THEN
    PERFORM pg_notify('registry_caller_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_caller_changes_update AFTER UPDATE ON sessions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_caller_changes_notify();
--> statement-breakpoint
-- Password guesses per account (lower-cased email, whether or not an identity has it), shared by
-- every server: one UPSERT per attempt counts it, a success deletes the row, a window that has
-- passed starts again at 1.
CREATE TABLE sign_in_throttle (
  email_key text PRIMARY KEY CHECK (length(email_key) <= 320),
  attempts integer NOT NULL CHECK (attempts > 0),
  window_started_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- What a security review asks for: who signed in or failed to, from where, when sessions ended and
-- why, and every permission refusal. Kept when the identity goes (no foreign key).
CREATE TABLE security_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN (
    'sign-in.success', 'sign-in.failure', 'sign-out', 'session.expired', 'session.revoked', 'password.changed',
    'password.change-refused', 'permission.refused'
  )),
  identity_id uuid,
  email text CHECK (length(email) <= 320),
  address text CHECK (length(address) <= 64),
  detail jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (pg_column_size(detail) <= 4096)
);
--> statement-breakpoint
CREATE INDEX security_events_occurred_at_idx ON security_events (occurred_at);
--> statement-breakpoint
CREATE INDEX security_events_identity_idx ON security_events (identity_id, occurred_at);
