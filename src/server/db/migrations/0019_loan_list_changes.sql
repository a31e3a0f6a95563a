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
-- One trigger per table, named <table>_changes.
DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['loan_list_entries', 'loan_list_counts', 'loan_list_totals', 'loan_list_search',
    'loan_list_items', 'pool_loans'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION loan_list_changes_notify()', watched || '_changes', watched);
  END LOOP;
END
$$;
