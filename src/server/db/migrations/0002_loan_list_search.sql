-- The asset search, scoped to the organization inside one index.
--
-- A trigram index over all loans finds every loan of the deployment that matches a common name
-- (a million loans hold tens of thousands of "smith"s) and then drops those of other
-- organizations one by one. loan_list_search holds one row per loan that any organization holds a
-- role on: the search text, the holders as '<participant id>:<ROLE>' keys, and the list's sort
-- keys. Its GIN index covers the text (pg_trgm) and the holders together, so a search reads only
-- the matching loans of one organization, and sorts and counts them from this one table.
-- loan_list_refresh and loan_list_rebuild (replaced here) keep it in step with loan_list_entries.
DROP INDEX loans_search_trgm_idx;
--> statement-breakpoint
CREATE TABLE loan_list_search (
  loan_id uuid NOT NULL PRIMARY KEY,
  holders text[] NOT NULL,
  search text COLLATE "C" NOT NULL,
  updated_at timestamptz NOT NULL,
  uli text COLLATE "C" NOT NULL,
  loan_type_label text COLLATE "C" NOT NULL,
  trade_date date,
  mortgagee_of_record text COLLATE "C",
  status_rank smallint NOT NULL,
  owner_name text COLLATE "C",
  servicer_name text COLLATE "C",
  controller_name text COLLATE "C",
  sub_servicer_name text COLLATE "C",
  secured_party_name text COLLATE "C"
);
--> statement-breakpoint
CREATE INDEX loan_list_search_idx ON loan_list_search USING gin (search gin_trgm_ops, holders);
--> statement-breakpoint
-- '<participant id>:<ROLE>' for each role in a loan_list_entries.roles bitmask.
CREATE FUNCTION loan_role_keys(participant_id uuid, roles smallint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(
  SELECT participant_id::text || ':' || role
  FROM unnest(ARRAY['OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY', 'ORIGINATOR']) AS role
  WHERE (roles & loan_role_bit(role)) <> 0
);
--> statement-breakpoint
-- The search rows of the given loans (NULL: all), from loan_list_entries (refreshed first) and loans.
CREATE FUNCTION loan_list_search_rows(loan_ids uuid[]) RETURNS SETOF loan_list_search
LANGUAGE sql STABLE
AS $$
  SELECT e.loan_id, array_agg(k.key ORDER BY k.key),
    loan_search_text(l.uli, l.loan_number, l.borrower_first_name, l.borrower_last_name, l.property_street1, l.property_street2,
      l.property_city, l.property_state, l.property_zip),
    e.updated_at, e.uli, e.loan_type_label, e.trade_date, e.mortgagee_of_record, e.status_rank,
    e.owner_name, e.servicer_name, e.controller_name, e.sub_servicer_name, e.secured_party_name
  FROM loan_list_entries e
  CROSS JOIN LATERAL unnest(loan_role_keys(e.participant_id, e.roles)) AS k(key)
  JOIN loans l ON l.id = e.loan_id
  WHERE loan_ids IS NULL OR e.loan_id = ANY (loan_ids)
  GROUP BY e.loan_id, l.id, e.updated_at, e.uli, e.loan_type_label, e.trade_date, e.mortgagee_of_record, e.status_rank,
    e.owner_name, e.servicer_name, e.controller_name, e.sub_servicer_name, e.secured_party_name
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION loan_list_refresh(loan_ids uuid[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  IF loan_ids IS NULL OR cardinality(loan_ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM loans WHERE id = ANY (loan_ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM loan_list_entries WHERE loan_id = ANY (loan_ids);
  -- EXECUTE plans with the actual array, so the row functions are inlined as index lookups.
  EXECUTE 'INSERT INTO loan_list_entries SELECT * FROM loan_list_rows($1)' USING loan_ids;
  DELETE FROM loan_list_search WHERE loan_id = ANY (loan_ids);
  EXECUTE 'INSERT INTO loan_list_search SELECT * FROM loan_list_search_rows($1)' USING loan_ids;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION loan_list_on_loans_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    PERFORM loan_list_refresh(ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.uli, n.loan_type, n.status, n.trade_date, n.mortgagee_of_record, n.updated_at, n.loan_number, n.borrower_first_name,
          n.borrower_last_name, n.property_street1, n.property_street2, n.property_city, n.property_state, n.property_zip)
        IS DISTINCT FROM (o.uli, o.loan_type, o.status, o.trade_date, o.mortgagee_of_record, o.updated_at, o.loan_number,
          o.borrower_first_name, o.borrower_last_name, o.property_street1, o.property_street2, o.property_city, o.property_state,
          o.property_zip)
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION loan_list_on_loans_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    DELETE FROM loan_list_entries WHERE loan_id IN (SELECT id FROM old_rows);
    DELETE FROM loan_list_search WHERE loan_id IN (SELECT id FROM old_rows);
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
  INSERT INTO loan_list_counts SELECT participant_id, roles, count(*) FROM loan_list_entries GROUP BY participant_id, roles;
  ANALYZE loan_list_entries;
  ANALYZE loan_list_counts;
  ANALYZE loan_list_search;
  PERFORM set_config('registry.loan_list_deferred', 'off', true);
END
$$;
--> statement-breakpoint
SELECT loan_list_rebuild();
