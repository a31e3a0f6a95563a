-- An organization's users page in name order walked users_name_order_idx and probed a membership
-- for every user it met (151 of each for a page of 10 in an organization of 18,211 members). The
-- members' lower-cased names are now kept in memberships beside the organization, so the page
-- reads 10 entries of memberships_name_order_idx. Statement-level triggers keep them: after an
-- insert (one join with users, which also works while a bulk load has dropped the users' keys)
-- and after a user's name changes.
ALTER TABLE "memberships" ADD COLUMN "sort_last_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "sort_first_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE memberships m SET sort_last_name = lower(u.last_name), sort_first_name = lower(u.first_name)
  FROM users u WHERE u.id = m.user_id;--> statement-breakpoint
CREATE INDEX "memberships_name_order_idx" ON "memberships" USING btree ("participant_id","sort_last_name","sort_first_name","user_id");--> statement-breakpoint
CREATE FUNCTION memberships_name_fill() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE memberships m SET sort_last_name = lower(u.last_name), sort_first_name = lower(u.first_name)
    FROM added a JOIN users u ON u.id = a.user_id
    WHERE m.user_id = a.user_id AND m.participant_id = a.participant_id
      AND (m.sort_last_name, m.sort_first_name) IS DISTINCT FROM (lower(u.last_name), lower(u.first_name));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memberships_name_fill AFTER INSERT ON memberships REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION memberships_name_fill();
--> statement-breakpoint
CREATE FUNCTION users_member_names_follow() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE memberships m SET sort_last_name = lower(n.last_name), sort_first_name = lower(n.first_name)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE m.user_id = n.id AND (lower(n.last_name), lower(n.first_name)) IS DISTINCT FROM (lower(o.last_name), lower(o.first_name));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_member_names_follow AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_member_names_follow();
