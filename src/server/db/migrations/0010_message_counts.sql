-- Issue 7: an organization's message counts, kept exact by statement triggers on messages, so
-- the inbox's total and the unread badge are one primary-key read instead of an index scan over
-- the whole inbox (tens of thousands of entries for the largest organization at a million loans).
-- Each statement adds its deltas per organization in the same transaction; no foreign key, so a
-- participant's cascade delete can still decrement its row.
CREATE TABLE "message_counts" (
	"participant_id" uuid PRIMARY KEY NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"unarchived" integer DEFAULT 0 NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION message_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_counts AS c (participant_id, total, unarchived, unread)
  SELECT participant_id, count(*), count(*) FILTER (WHERE NOT archived), count(*) FILTER (WHERE NOT read AND NOT archived)
  FROM new_rows GROUP BY participant_id ORDER BY participant_id
  ON CONFLICT (participant_id) DO UPDATE
    SET total = c.total + excluded.total, unarchived = c.unarchived + excluded.unarchived, unread = c.unread + excluded.unread;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION message_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE message_counts AS c
  SET total = c.total - d.total, unarchived = c.unarchived - d.unarchived, unread = c.unread - d.unread
  FROM (
    SELECT participant_id, count(*) AS total, count(*) FILTER (WHERE NOT archived) AS unarchived,
      count(*) FILTER (WHERE NOT read AND NOT archived) AS unread
    FROM old_rows GROUP BY participant_id
  ) d
  WHERE c.participant_id = d.participant_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION message_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_counts AS c (participant_id, total, unarchived, unread)
  SELECT participant_id, sum(total), sum(unarchived), sum(unread)
  FROM (
    SELECT participant_id, 1 AS total, (NOT archived)::int AS unarchived, (NOT read AND NOT archived)::int AS unread FROM new_rows
    UNION ALL
    SELECT participant_id, -1, -(NOT archived)::int, -(NOT read AND NOT archived)::int FROM old_rows
  ) d
  GROUP BY participant_id
  HAVING sum(total) <> 0 OR sum(unarchived) <> 0 OR sum(unread) <> 0
  ORDER BY participant_id
  ON CONFLICT (participant_id) DO UPDATE
    SET total = c.total + excluded.total, unarchived = c.unarchived + excluded.unarchived, unread = c.unread + excluded.unread;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION message_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER message_counts_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION message_counts_on_insert();
--> statement-breakpoint
CREATE TRIGGER message_counts_update AFTER UPDATE ON messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION message_counts_on_update();
--> statement-breakpoint
CREATE TRIGGER message_counts_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION message_counts_on_delete();
--> statement-breakpoint
CREATE TRIGGER message_counts_truncate AFTER TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION message_counts_on_truncate();
--> statement-breakpoint
-- Nothing reads the unread index any more; it only cost writes.
DROP INDEX IF EXISTS "messages_unread_idx";
--> statement-breakpoint
INSERT INTO message_counts (participant_id, total, unarchived, unread)
SELECT participant_id, count(*), count(*) FILTER (WHERE NOT archived), count(*) FILTER (WHERE NOT read AND NOT archived)
FROM messages GROUP BY participant_id;
