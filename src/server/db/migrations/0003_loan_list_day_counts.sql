-- Exact counts of a date-filtered asset list without reading every row: loan_list_counts counts
-- loan_list_entries per (participant, UTC day of updated_at, roles). "Updated at or after X" is the
-- sum of the days after X's day plus the rows of X's own day read from the index.
DROP TABLE loan_list_counts;
--> statement-breakpoint
CREATE TABLE loan_list_counts (
  participant_id uuid NOT NULL,
  updated_on date NOT NULL,
  roles smallint NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT loan_list_counts_pkey PRIMARY KEY (participant_id, updated_on, roles)
);
--> statement-breakpoint
CREATE FUNCTION loan_list_day(at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (at AT TIME ZONE 'UTC')::date;
--> statement-breakpoint
-- The start of the UTC day after the one holding `at`.
CREATE FUNCTION loan_list_next_day(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ((at AT TIME ZONE 'UTC')::date + 1)::timestamp AT TIME ZONE 'UTC';
--> statement-breakpoint
-- loan_list_counts follows loan_list_entries (in key order, so concurrent writers lock alike).
CREATE OR REPLACE FUNCTION loan_list_on_entries_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF loan_list_deferred() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO loan_list_counts AS c (participant_id, updated_on, roles, count)
    SELECT participant_id, loan_list_day(updated_at), roles, -count(*) FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (participant_id, updated_on, roles) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO loan_list_counts AS c (participant_id, updated_on, roles, count)
    SELECT participant_id, loan_list_day(updated_at), roles, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (participant_id, updated_on, roles) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Hash joins over whole tables whatever the statistics say (a bulk load has not been analyzed yet).
CREATE OR REPLACE FUNCTION loan_list_rebuild() RETURNS void
LANGUAGE plpgsql
SET maintenance_work_mem = '512MB'
SET work_mem = '256MB'
SET enable_nestloop = off
AS $$
DECLARE
  definitions text[];
  definition text;
BEGIN
  PERFORM set_config('registry.loan_list_deferred', 'on', true);
  LOCK TABLE loan_list_entries, loan_list_counts, loan_list_search IN ACCESS EXCLUSIVE MODE;
  TRUNCATE loan_list_entries, loan_list_counts, loan_list_search;
  -- Building each index once after the load is several times faster than maintaining it per row.
  SELECT array_agg(pg_get_indexdef(i.indexrelid)) INTO definitions
  FROM pg_index i WHERE i.indrelid IN ('loan_list_entries'::regclass, 'loan_list_search'::regclass) AND NOT i.indisprimary;
  FOR definition IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid IN ('loan_list_entries'::regclass, 'loan_list_search'::regclass) AND NOT i.indisprimary LOOP
    EXECUTE format('DROP INDEX %I', definition);
  END LOOP;
  INSERT INTO loan_list_entries SELECT * FROM loan_list_rows(NULL) ORDER BY 1, 2;
  INSERT INTO loan_list_search SELECT * FROM loan_list_search_rows(NULL) ORDER BY 1;
  FOREACH definition IN ARRAY coalesce(definitions, '{}') LOOP
    EXECUTE definition;
  END LOOP;
  INSERT INTO loan_list_counts
    SELECT participant_id, loan_list_day(updated_at), roles, count(*) FROM loan_list_entries GROUP BY 1, 2, 3;
  ANALYZE loan_list_entries;
  ANALYZE loan_list_counts;
  ANALYZE loan_list_search;
  PERFORM set_config('registry.loan_list_deferred', 'off', true);
END
$$;
--> statement-breakpoint
INSERT INTO loan_list_counts
SELECT participant_id, loan_list_day(updated_at), roles, count(*) FROM loan_list_entries GROUP BY 1, 2, 3;
