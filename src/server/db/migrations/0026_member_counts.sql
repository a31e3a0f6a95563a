-- Each organization's number of members, kept by triggers on memberships so the administration's
-- users page does not count a large organization's memberships on every page (18,211 index
-- entries, about 2 ms of PostgreSQL each time). Statement-level, from the transition tables; an
-- insert adds (one upsert per organization, in id order so concurrent writers lock alike), a
-- delete subtracts from rows that exist (an organization being deleted has none left to keep).
CREATE TABLE "participant_member_counts" (
	"participant_id" uuid PRIMARY KEY NOT NULL,
	"members" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO participant_member_counts (participant_id, members)
  SELECT participant_id, count(*) FROM memberships GROUP BY participant_id;
--> statement-breakpoint
CREATE FUNCTION member_counts_add() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  INSERT INTO participant_member_counts (participant_id, members)
    SELECT participant_id, count(*) FROM added GROUP BY participant_id ORDER BY participant_id
    ON CONFLICT (participant_id) DO UPDATE SET members = participant_member_counts.members + EXCLUDED.members;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION member_counts_subtract() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE participant_member_counts c SET members = c.members - r.members
    FROM (SELECT participant_id, count(*)::int AS members FROM removed GROUP BY participant_id ORDER BY participant_id) r
    WHERE c.participant_id = r.participant_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION member_counts_move() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  -- Only rows whose key changed (a roles change leaves the counts alone).
  IF EXISTS (
    SELECT 1 FROM removed r FULL JOIN added a ON a.user_id = r.user_id AND a.participant_id = r.participant_id
    WHERE a.user_id IS NULL OR r.user_id IS NULL
  ) THEN
    UPDATE participant_member_counts c SET members = c.members - r.members
      FROM (SELECT participant_id, count(*)::int AS members FROM removed GROUP BY participant_id ORDER BY participant_id) r
      WHERE c.participant_id = r.participant_id;
    INSERT INTO participant_member_counts (participant_id, members)
      SELECT participant_id, count(*) FROM added GROUP BY participant_id ORDER BY participant_id
      ON CONFLICT (participant_id) DO UPDATE SET members = participant_member_counts.members + EXCLUDED.members;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION member_counts_clear() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  DELETE FROM participant_member_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memberships_count_insert AFTER INSERT ON memberships REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION member_counts_add();
--> statement-breakpoint
CREATE TRIGGER memberships_count_delete AFTER DELETE ON memberships REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION member_counts_subtract();
--> statement-breakpoint
CREATE TRIGGER memberships_count_update AFTER UPDATE ON memberships REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION member_counts_move();
--> statement-breakpoint
CREATE TRIGGER memberships_count_truncate AFTER TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION member_counts_clear();
