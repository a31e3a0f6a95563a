-- The asset list's items, kept beside the index (issue 5 and issue 8's list throughput).
--
-- A page of the list read its ten loans and their fifty role entries (loan_parties and the
-- participants' names) and wrote each item's JSON on every call: about half of what PostgreSQL
-- spends on a first page, for a list read thousands of times a second and written seldom.
-- loan_list_items holds each loan's item as the exact JSON text the page sends (loanListItemSchema,
-- its keys in the contract's order), so a page joins its ten ids to ten rows here.
--
-- The text is concatenated, every string through to_json (which escapes it) and every other value
-- of a fixed alphabet (uuids, role states). One row per loan on which some organization holds a
-- role (a loan with a loan_list_entries row), kept by loan_list_refresh and rebuilt by
-- loan_list_rebuild, like the other derived tables.
CREATE TABLE "loan_list_items" (
	"loan_id" uuid PRIMARY KEY NOT NULL,
	"item" text NOT NULL
);
--> statement-breakpoint
-- The list items of the given loans (NULL: every loan) on which some organization holds a role:
-- those with a loan_list_entries row (loan_list_rows). Inlined by the planner, so a constant list
-- becomes index lookups. One pass over the parties, grouped by loan (a whole rebuild: 13 s at a
-- million loans, against 22 s with a semi-join on the entries).
CREATE FUNCTION loan_list_item_rows(loan_ids uuid[]) RETURNS SETOF loan_list_items
LANGUAGE sql STABLE
AS $$
  SELECT l.id,
    '{"loanId":"' || l.id || '","uli":' || to_json(l.uli)::text || ',"loanType":' || to_json(l.loan_type)::text
      || ',"tradeDate":' || coalesce(to_json(l.trade_date)::text, 'null')
      || ',"mortgageeOfRecord":' || coalesce(to_json(l.mortgagee_of_record)::text, 'null')
      || ',"status":' || to_json(l.status)::text || ',"owner":' || coalesce(r.owner, 'null')
      || ',"servicer":' || coalesce(r.servicer, 'null') || ',"controller":' || coalesce(r.controller, 'null')
      || ',"subServicer":' || coalesce(r.sub_servicer, 'null') || ',"securedParty":' || coalesce(r.secured_party, 'null') || '}'
  FROM loans l
  JOIN (
    -- One row per loan and role (loan_parties_loan_role_key): max() picks the only one.
    SELECT lp.loan_id,
      max(entry.json) FILTER (WHERE lp.role = 'OWNER') AS owner,
      max(entry.json) FILTER (WHERE lp.role = 'SERVICER') AS servicer,
      max(entry.json) FILTER (WHERE lp.role = 'CONTROLLER') AS controller,
      max(entry.json) FILTER (WHERE lp.role = 'SUB_SERVICER') AS sub_servicer,
      max(entry.json) FILTER (WHERE lp.role = 'SECURED_PARTY') AS secured_party
    FROM loan_parties lp
    LEFT JOIN participants pt ON pt.id = lp.participant_id
    -- A role entry (roleEntrySchema): a participant's name and provenance (its id without one, as
    -- the details give it), or a plain name.
    CROSS JOIN LATERAL (
      SELECT '{"state":"' || lp.state || '","currentValue":' || CASE WHEN lp.participant_id IS NOT NULL
          THEN '{"participantName":' || to_json(coalesce(pt.name, lp.name, ''))::text
            || ',"provenanceId":' || to_json(coalesce(lp.provenance_id, lp.participant_id::text))::text || '}'
          ELSE coalesce(to_json(lp.name)::text, 'null') END || '}' AS json
    ) entry
    WHERE loan_ids IS NULL OR lp.loan_id = ANY (loan_ids)
    GROUP BY lp.loan_id
    -- Held by some organization: the condition under which loan_list_rows writes entries.
    HAVING bool_or(lp.participant_id IS NOT NULL AND loan_role_bit(lp.role) <> 0)
  ) r ON r.loan_id = l.id
$$;
--> statement-breakpoint
-- Writes the item of every loan with entries into the empty loan_list_items, in loan id order;
-- the primary key is built afterwards, by one sort.
CREATE FUNCTION loan_list_items_fill() RETURNS void
LANGUAGE plpgsql
SET work_mem = '256MB'
SET maintenance_work_mem = '512MB'
SET enable_nestloop = off
AS $$
BEGIN
  ALTER TABLE loan_list_items DROP CONSTRAINT loan_list_items_pkey;
  INSERT INTO loan_list_items SELECT * FROM loan_list_item_rows(NULL) ORDER BY 1;
  ALTER TABLE loan_list_items ADD CONSTRAINT loan_list_items_pkey PRIMARY KEY (loan_id);
END
$$;
--> statement-breakpoint
-- As in 0006, with the items.
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
  DELETE FROM loan_list_items i
  WHERE i.loan_id = ANY (loan_ids) AND NOT EXISTS (SELECT 1 FROM loan_list_entries e WHERE e.loan_id = i.loan_id);
  -- An item written only when it changed: a loan's updated_at alone leaves it as it is.
  EXECUTE 'INSERT INTO loan_list_items AS i SELECT * FROM loan_list_item_rows($1) ORDER BY loan_id
    ON CONFLICT (loan_id) DO UPDATE SET item = excluded.item WHERE i.item IS DISTINCT FROM excluded.item' USING loan_ids;
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
    DELETE FROM loan_list_items WHERE loan_id IN (SELECT id FROM old_rows);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- As in 0012, with the items (filled after the entries they follow).
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
  LOCK TABLE loan_list_entries, loan_list_counts, loan_list_totals, loan_list_search, loan_list_items IN ACCESS EXCLUSIVE MODE;
  TRUNCATE loan_list_entries, loan_list_counts, loan_list_totals, loan_list_search, loan_list_items;
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
  PERFORM loan_list_items_fill();
  INSERT INTO loan_list_counts
    SELECT participant_id, loan_list_day(updated_at), roles, count(*) FROM loan_list_entries GROUP BY 1, 2, 3;
  INSERT INTO loan_list_totals SELECT participant_id, roles, sum(count) FROM loan_list_counts GROUP BY 1, 2;
  ANALYZE loan_list_counts;
  ANALYZE loan_list_totals;
  ANALYZE loan_list_search;
  ANALYZE loan_list_items;
  PERFORM set_config('registry.loan_list_deferred', 'off', true);
END
$$;
--> statement-breakpoint
-- The items of the loans already present.
SELECT loan_list_items_fill();
--> statement-breakpoint
ANALYZE loan_list_items;
