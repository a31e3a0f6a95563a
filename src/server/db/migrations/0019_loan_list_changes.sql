-- Servers keep the asset list's recent pages (src/server/db/loan-page-cache.ts). Any change to
-- what a page reads (the list index's tables and pool membership) tells every server to empty
-- it: NOTIFY is sent at commit, to every listening connection, once per transaction (PostgreSQL
-- folds identical notifications). Statement-level without transition tables: a bulk load (the
-- seed, loan_list_rebuild) keeps no copy of its rows for the trigger.
CREATE FUNCTION loan_list_changes_notify() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('registry_loan_list_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER loan_list_entries_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loan_list_entries
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify();
--> statement-breakpoint
CREATE TRIGGER loan_list_counts_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loan_list_counts
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify();
--> statement-breakpoint
CREATE TRIGGER loan_list_totals_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loan_list_totals
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify();
--> statement-breakpoint
CREATE TRIGGER loan_list_search_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loan_list_search
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify();
--> statement-breakpoint
CREATE TRIGGER loan_list_items_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loan_list_items
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify();
--> statement-breakpoint
CREATE TRIGGER pool_loans_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pool_loans
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify();
