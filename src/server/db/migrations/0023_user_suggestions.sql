-- The "Add existing user" suggestions look users up by the start of their first name through this
-- index (by last name through users_name_order_idx, by email through users_email_key).
CREATE INDEX "users_first_name_order_idx" ON "users" USING btree (lower("first_name"),"id");