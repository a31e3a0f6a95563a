-- The asset search in two rows per loan, each stored beside the rows that share its words.
--
-- A search for a common word (a last name, a street) matches thousands of an organization's loans,
-- and its exact total reads every one of them. With one row per loan in loan id order each match
-- sat on a page of its own ('ulliv' at a million loans: 5,700 matches on 5,500 pages), and the
-- trigram lists were long and scattered. loan_list_search now holds two rows per loan: part 1 the
-- property address, part 2 ULI, loan number and borrower "first last". The rebuild writes part 1
-- rows in street name order and part 2 rows in last name order (loan_search_locality), so the
-- matches of a street or a name share a few hundred pages; a refresh updates the rows in place
-- (fillfactor 90 leaves room on their page), so they stay there.
--
-- Each loan still counts once: a part 2 row also holds the address (earlier_search), and a search
-- skips it when the address matches too. A query with a line break in it, which only the whole
-- text (fields joined by line breaks, loan_search_text) can match, reads part 2 rows whole.
-- Holder keys are the md5 of '<participant id>:<ROLE>' as a uuid (loan_holder_keys): a third of
-- the text keys' size. The GIN index has fastupdate off, so no search scans a pending list.
DROP FUNCTION loan_list_search_rows(uuid[]);
--> statement-breakpoint
DROP TABLE loan_list_search;
--> statement-breakpoint
CREATE TABLE loan_list_search (
  loan_id uuid NOT NULL,
  -- 1: the property address; 2: ULI, loan number and borrower "first last".
  part smallint NOT NULL,
  status_rank smallint NOT NULL,
  trade_date date,
  updated_at timestamptz NOT NULL,
  search text COLLATE "C" NOT NULL,
  holders uuid[] NOT NULL,
  -- The search text of the loan's part 1 row on its part 2 row ('' on part 1).
  earlier_search text COLLATE "C" NOT NULL,
  uli text COLLATE "C" NOT NULL,
  loan_type_label text COLLATE "C" NOT NULL,
  mortgagee_of_record text COLLATE "C",
  owner_name text COLLATE "C",
  servicer_name text COLLATE "C",
  controller_name text COLLATE "C",
  sub_servicer_name text COLLATE "C",
  secured_party_name text COLLATE "C",
  CONSTRAINT loan_list_search_pkey PRIMARY KEY (loan_id, part)
) WITH (fillfactor = 90);
--> statement-breakpoint
-- A holder key of loan_list_search.holders: '<participant id>:<ROLE>' (loan_role_keys) as a uuid.
CREATE FUNCTION loan_holder_key(key text) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN md5(key)::uuid;
--> statement-breakpoint
-- The holder keys of a search's roles (not inlined: with a constant list, planned as a constant).
CREATE FUNCTION loan_holder_keys(keys text[]) RETURNS uuid[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(SELECT loan_holder_key(k) FROM unnest(keys) AS k);
--> statement-breakpoint
-- The search rows of the given loans (NULL: all), from loan_list_entries (refreshed first) and loans.
CREATE FUNCTION loan_list_search_rows(loan_ids uuid[]) RETURNS SETOF loan_list_search
LANGUAGE sql STABLE
AS $$
  SELECT h.loan_id, p.part, h.status_rank, h.trade_date, h.updated_at, p.search, h.holders, p.earlier_search, h.uli,
    h.loan_type_label, h.mortgagee_of_record, h.owner_name, h.servicer_name, h.controller_name, h.sub_servicer_name,
    h.secured_party_name
  FROM (
    -- The sort keys are the loan's own (equal on each of its entries).
    SELECT e.loan_id, array_agg(k.key ORDER BY k.key) AS holders, any_value(e.status_rank) AS status_rank,
      any_value(e.trade_date) AS trade_date, any_value(e.updated_at) AS updated_at, any_value(e.uli) AS uli,
      any_value(e.loan_type_label) AS loan_type_label, any_value(e.mortgagee_of_record) AS mortgagee_of_record,
      any_value(e.owner_name) AS owner_name, any_value(e.servicer_name) AS servicer_name,
      any_value(e.controller_name) AS controller_name, any_value(e.sub_servicer_name) AS sub_servicer_name,
      any_value(e.secured_party_name) AS secured_party_name
    FROM loan_list_entries e
    CROSS JOIN LATERAL unnest(loan_holder_keys(loan_role_keys(e.participant_id, e.roles))) AS k(key)
    WHERE loan_ids IS NULL OR e.loan_id = ANY (loan_ids)
    GROUP BY e.loan_id
  ) h
  JOIN loans l ON l.id = h.loan_id
  CROSS JOIN LATERAL (
    SELECT lower(l.property_street1 || coalesce(', ' || l.property_street2, '') || ', ' || l.property_city || ', '
      || l.property_state || ' ' || l.property_zip) COLLATE "C" AS address
  ) a
  -- UNION ALL rather than VALUES: a filter on part (the rebuild writes one part at a time) drops the other branch unevaluated.
  CROSS JOIN LATERAL (
    SELECT 1::smallint AS part, a.address AS search, ''::text COLLATE "C" AS earlier_search
    UNION ALL
    SELECT 2::smallint, lower(l.uli || E'\n' || l.loan_number || E'\n' || l.borrower_first_name || ' ' || l.borrower_last_name)
      COLLATE "C", a.address
  ) p
  WHERE loan_ids IS NULL OR l.id = ANY (loan_ids)
$$;
--> statement-breakpoint
-- Where the rebuild stores a search row: addresses by street name (without the house number),
-- borrower lines by last name, so the rows one common word matches sit together.
CREATE FUNCTION loan_search_locality(part smallint, search text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE part
  WHEN 1 THEN ltrim(search, '0123456789 ')
  ELSE split_part(split_part(search, E'\n', 3), ' ', -1) || ' ' || split_part(search, E'\n', 3) END;
--> statement-breakpoint
-- Writes the search rows of every loan into the empty loan_list_search: one part at a time, each
-- in locality order (a sort of a million rows in memory, where both parts at once spill to disk).
-- The primary key is built afterwards, by one sort, instead of row by row in random loan order.
CREATE FUNCTION loan_list_search_fill() RETURNS void
LANGUAGE plpgsql
SET work_mem = '512MB'
SET maintenance_work_mem = '512MB'
SET enable_nestloop = off
AS $$
BEGIN
  ALTER TABLE loan_list_search DROP CONSTRAINT loan_list_search_pkey;
  INSERT INTO loan_list_search
  SELECT * FROM loan_list_search_rows(NULL) r WHERE r.part = 1 ORDER BY loan_search_locality(r.part, r.search);
  INSERT INTO loan_list_search
  SELECT * FROM loan_list_search_rows(NULL) r WHERE r.part = 2 ORDER BY loan_search_locality(r.part, r.search);
  ALTER TABLE loan_list_search ADD CONSTRAINT loan_list_search_pkey PRIMARY KEY (loan_id, part);
END
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
  DELETE FROM loan_list_search s
  WHERE s.loan_id = ANY (loan_ids) AND NOT EXISTS (SELECT 1 FROM loan_list_entries e WHERE e.loan_id = s.loan_id);
  -- Updated, not deleted and inserted: the new version stays on its page, beside the rows of its
  -- street or name, and a change of sort keys alone leaves the GIN index untouched (HOT).
  EXECUTE 'INSERT INTO loan_list_search AS s SELECT * FROM loan_list_search_rows($1) ORDER BY loan_id, part
    ON CONFLICT (loan_id, part) DO UPDATE SET status_rank = excluded.status_rank, trade_date = excluded.trade_date,
      updated_at = excluded.updated_at, search = excluded.search, holders = excluded.holders,
      earlier_search = excluded.earlier_search, uli = excluded.uli, loan_type_label = excluded.loan_type_label,
      mortgagee_of_record = excluded.mortgagee_of_record, owner_name = excluded.owner_name,
      servicer_name = excluded.servicer_name, controller_name = excluded.controller_name,
      sub_servicer_name = excluded.sub_servicer_name, secured_party_name = excluded.secured_party_name
    WHERE s IS DISTINCT FROM excluded' USING loan_ids;
END
$$;
--> statement-breakpoint
-- Hash joins over whole tables whatever the statistics say (a bulk load has not been analyzed yet).
-- As in 0004, but the entries' indexes are built (and the entries analyzed) before the search rows,
-- which read loan_list_entries loan by loan.
CREATE OR REPLACE FUNCTION loan_list_rebuild() RETURNS void
LANGUAGE plpgsql
SET maintenance_work_mem = '512MB'
SET work_mem = '256MB'
SET enable_nestloop = off
AS $$
DECLARE
  entry_indexes text[];
  search_indexes text[];
  definition text;
BEGIN
  PERFORM set_config('registry.loan_list_deferred', 'on', true);
  LOCK TABLE loan_list_entries, loan_list_counts, loan_list_search IN ACCESS EXCLUSIVE MODE;
  TRUNCATE loan_list_entries, loan_list_counts, loan_list_search;
  -- Building each index once after the load is several times faster than maintaining it per row.
  SELECT array_agg(pg_get_indexdef(i.indexrelid)) FILTER (WHERE i.indrelid = 'loan_list_entries'::regclass),
    array_agg(pg_get_indexdef(i.indexrelid)) FILTER (WHERE i.indrelid = 'loan_list_search'::regclass)
  INTO entry_indexes, search_indexes
  FROM pg_index i WHERE i.indrelid IN ('loan_list_entries'::regclass, 'loan_list_search'::regclass) AND NOT i.indisprimary;
  FOR definition IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid IN ('loan_list_entries'::regclass, 'loan_list_search'::regclass) AND NOT i.indisprimary LOOP
    EXECUTE format('DROP INDEX %I', definition);
  END LOOP;
  INSERT INTO loan_list_entries SELECT * FROM loan_list_rows(NULL) ORDER BY 1, 2;
  FOREACH definition IN ARRAY coalesce(entry_indexes, '{}') LOOP
    EXECUTE definition;
  END LOOP;
  ANALYZE loan_list_entries;
  PERFORM loan_list_search_fill();
  FOREACH definition IN ARRAY coalesce(search_indexes, '{}') LOOP
    EXECUTE definition;
  END LOOP;
  INSERT INTO loan_list_counts
    SELECT participant_id, loan_list_day(updated_at), roles, count(*) FROM loan_list_entries GROUP BY 1, 2, 3;
  ANALYZE loan_list_counts;
  ANALYZE loan_list_search;
  PERFORM set_config('registry.loan_list_deferred', 'off', true);
END
$$;
--> statement-breakpoint
-- The rows of the loans already present, then the index (built once, after the load).
SELECT loan_list_search_fill();
--> statement-breakpoint
SET LOCAL maintenance_work_mem = '512MB';
--> statement-breakpoint
CREATE INDEX loan_list_search_idx ON loan_list_search USING gin (search gin_trgm_ops, holders) WITH (fastupdate = off);
--> statement-breakpoint
RESET maintenance_work_mem;
--> statement-breakpoint
ANALYZE loan_list_search;
