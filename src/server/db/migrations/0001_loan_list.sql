-- The asset list index (issue 5, "Scale and speed").
--
-- loan_list_entries holds one row per (participant, loan) on which the participant holds a role:
-- the roles as a bitmask (loan_role_bit) and every sort key of the asset list, so a page of any
-- organization's list, in any sort order, is a range scan of one btree index
-- (participant_id, sort key, loan_id). loan_list_counts holds the exact row count per
-- (participant, role bitmask), so the unfiltered totalCount is a sum of at most 63 rows.
-- Text search goes through a pg_trgm GIN index on loan_search_text(...) of loans.
--
-- Maintenance: statement-level AFTER triggers with transition tables on loans, loan_parties and
-- participants call loan_list_refresh(loan ids), so every writer keeps the index exact. A bulk
-- loader (the seed) instead runs `SELECT loan_list_defer()` in its transaction, which makes those
-- triggers skip, loads, then `SELECT loan_list_rebuild()` (TypeScript: deferLoanListIndex(tx) and
-- refreshLoanListIndex(tx) in src/server/db/loan-list-index.ts), which rebuilds both tables from
-- scratch (indexes dropped and recreated around the insert) and ends the deferral.
-- No foreign keys on the derived tables: the triggers own their rows, and FK checks would double
-- the bulk rebuild.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE FUNCTION loan_role_bit(role text) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE role
  WHEN 'OWNER' THEN 1 WHEN 'SERVICER' THEN 2 WHEN 'CONTROLLER' THEN 4 WHEN 'SUB_SERVICER' THEN 8
  WHEN 'SECURED_PARTY' THEN 16 WHEN 'ORIGINATOR' THEN 32 ELSE 0 END;
--> statement-breakpoint
-- SPEC section 3's loan type labels (src/domain/loan.ts loanTypeLabel): the loanType sort key.
CREATE FUNCTION loan_type_label(loan_type text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN loan_type LIKE '%MORTGAGE%' THEN 'Mortgage'
  WHEN loan_type = 'CRYPTO_HELOC' THEN 'Crypto HELOC'
  WHEN loan_type = 'FIGURE_HELOC' THEN 'HELOC'
  WHEN loan_type = 'PIGGYBACK_HELOC' THEN 'Piggyback HELOC'
  ELSE loan_type END;
--> statement-breakpoint
-- What the asset search matches (case-insensitive substring): ULI, loan number, borrower
-- "first last", property address as displayed. Fields are joined by a line break, so a query
-- does not match across two fields.
CREATE FUNCTION loan_search_text(
  uli text, loan_number text, first_name text, last_name text, street1 text, street2 text, city text, state text, zip text
) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN lower(
  uli || E'\n' || loan_number || E'\n' || first_name || ' ' || last_name || E'\n'
  || street1 || coalesce(', ' || street2, '') || ', ' || city || ', ' || state || ' ' || zip
);
--> statement-breakpoint
CREATE INDEX loans_search_trgm_idx ON loans USING gin (
  loan_search_text(uli, loan_number, borrower_first_name, borrower_last_name, property_street1, property_street2, property_city,
    property_state, property_zip) gin_trgm_ops
);
--> statement-breakpoint
-- Text sort keys compare bytewise (COLLATE "C": the order of the database's C.UTF-8, without
-- its slower strcoll path), which keeps index builds and sorts cheap.
CREATE TABLE loan_list_entries (
  participant_id uuid NOT NULL,
  loan_id uuid NOT NULL,
  roles smallint NOT NULL,
  updated_at timestamptz NOT NULL,
  uli text COLLATE "C" NOT NULL,
  loan_type_label text COLLATE "C" NOT NULL,
  trade_date date,
  mortgagee_of_record text COLLATE "C",
  -- SPEC section 4's derived status in its order: 1 Deactivated, 2 Pending Update,
  -- 3 Rejected Update, 4 Active, 5 none of them.
  status_rank smallint NOT NULL,
  owner_name text COLLATE "C",
  servicer_name text COLLATE "C",
  controller_name text COLLATE "C",
  sub_servicer_name text COLLATE "C",
  secured_party_name text COLLATE "C",
  CONSTRAINT loan_list_entries_pkey PRIMARY KEY (participant_id, loan_id) INCLUDE (roles)
);
--> statement-breakpoint
CREATE INDEX loan_list_entries_loan_idx ON loan_list_entries (loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_updated_idx ON loan_list_entries (participant_id, updated_at, loan_id) INCLUDE (roles);
--> statement-breakpoint
CREATE INDEX loan_list_entries_uli_idx ON loan_list_entries (participant_id, uli, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_loan_type_idx ON loan_list_entries (participant_id, loan_type_label, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_trade_date_idx ON loan_list_entries (participant_id, trade_date, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_mortgagee_idx ON loan_list_entries (participant_id, mortgagee_of_record, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_status_idx ON loan_list_entries (participant_id, status_rank, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_owner_idx ON loan_list_entries (participant_id, owner_name, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_servicer_idx ON loan_list_entries (participant_id, servicer_name, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_controller_idx ON loan_list_entries (participant_id, controller_name, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_sub_servicer_idx ON loan_list_entries (participant_id, sub_servicer_name, loan_id);
--> statement-breakpoint
CREATE INDEX loan_list_entries_secured_party_idx ON loan_list_entries (participant_id, secured_party_name, loan_id);
--> statement-breakpoint
CREATE TABLE loan_list_counts (
  participant_id uuid NOT NULL,
  roles smallint NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT loan_list_counts_pkey PRIMARY KEY (participant_id, roles)
);
--> statement-breakpoint
-- The index rows of the given loans (NULL: of every loan), computed from loans, loan_parties and
-- participants. Inlined by the planner, so a constant list becomes index lookups.
CREATE FUNCTION loan_list_rows(loan_ids uuid[]) RETURNS SETOF loan_list_entries
LANGUAGE sql STABLE
AS $$
  SELECT holder.participant_id, l.id, holder.roles, l.updated_at, l.uli, loan_type_label(l.loan_type), l.trade_date,
    l.mortgagee_of_record,
    (CASE
      WHEN l.status = 'Inactive' THEN 1
      WHEN party.any_pending THEN 2
      WHEN party.any_rejected THEN 3
      WHEN party.any_confirmed THEN 4
      ELSE 5 END)::smallint,
    party.owner_name, party.servicer_name, party.controller_name, party.sub_servicer_name, party.secured_party_name
  FROM loans l
  JOIN (
    SELECT lp.loan_id, lp.participant_id, bit_or(loan_role_bit(lp.role))::smallint AS roles
    FROM loan_parties lp
    WHERE lp.participant_id IS NOT NULL AND (loan_ids IS NULL OR lp.loan_id = ANY (loan_ids))
    GROUP BY lp.loan_id, lp.participant_id
    HAVING bit_or(loan_role_bit(lp.role)) <> 0
  ) holder ON holder.loan_id = l.id
  JOIN (
    SELECT lp.loan_id,
      min(coalesce(pt.name, lp.name)) FILTER (WHERE lp.role = 'OWNER') AS owner_name,
      min(coalesce(pt.name, lp.name)) FILTER (WHERE lp.role = 'SERVICER') AS servicer_name,
      min(coalesce(pt.name, lp.name)) FILTER (WHERE lp.role = 'CONTROLLER') AS controller_name,
      min(coalesce(pt.name, lp.name)) FILTER (WHERE lp.role = 'SUB_SERVICER') AS sub_servicer_name,
      min(coalesce(pt.name, lp.name)) FILTER (WHERE lp.role = 'SECURED_PARTY') AS secured_party_name,
      coalesce(bool_or(lp.state = 'PENDING') FILTER (WHERE lp.role IN ('OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY')), false) AS any_pending,
      coalesce(bool_or(lp.state = 'REJECTED') FILTER (WHERE lp.role IN ('OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY')), false) AS any_rejected,
      coalesce(bool_or(lp.state = 'CONFIRMED') FILTER (WHERE lp.role IN ('OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY')), false) AS any_confirmed
    FROM loan_parties lp
    LEFT JOIN participants pt ON pt.id = lp.participant_id
    WHERE loan_ids IS NULL OR lp.loan_id = ANY (loan_ids)
    GROUP BY lp.loan_id
  ) party ON party.loan_id = l.id
  WHERE loan_ids IS NULL OR l.id = ANY (loan_ids)
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_deferred() RETURNS boolean
LANGUAGE sql STABLE
RETURN coalesce(current_setting('registry.loan_list_deferred', true), '') = 'on';
--> statement-breakpoint
-- For bulk loaders: the triggers skip until loan_list_rebuild() in the same transaction.
CREATE FUNCTION loan_list_defer() RETURNS void
LANGUAGE sql
AS $$ SELECT set_config('registry.loan_list_deferred', 'on', true) $$;
--> statement-breakpoint
-- Recomputes the index rows of the given loans. The loans are locked first (in id order), so two
-- transactions changing the same loan refresh it one after the other, each from committed data.
CREATE FUNCTION loan_list_refresh(loan_ids uuid[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  IF loan_ids IS NULL OR cardinality(loan_ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM loans WHERE id = ANY (loan_ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM loan_list_entries WHERE loan_id = ANY (loan_ids);
  -- EXECUTE plans with the actual array, so loan_list_rows is inlined as index lookups.
  EXECUTE 'INSERT INTO loan_list_entries SELECT * FROM loan_list_rows($1)' USING loan_ids;
END
$$;
--> statement-breakpoint
-- Hash joins over whole tables whatever the statistics say (a bulk load has not been analyzed yet).
CREATE FUNCTION loan_list_rebuild() RETURNS void
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
  LOCK TABLE loan_list_entries, loan_list_counts IN ACCESS EXCLUSIVE MODE;
  TRUNCATE loan_list_entries, loan_list_counts;
  -- Building each index once after the load is several times faster than maintaining it per row.
  SELECT array_agg(pg_get_indexdef(i.indexrelid)) INTO definitions
  FROM pg_index i WHERE i.indrelid = 'loan_list_entries'::regclass AND NOT i.indisprimary;
  FOR definition IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'loan_list_entries'::regclass AND NOT i.indisprimary LOOP
    EXECUTE format('DROP INDEX %I', definition);
  END LOOP;
  INSERT INTO loan_list_entries SELECT * FROM loan_list_rows(NULL) ORDER BY 1, 2;
  FOREACH definition IN ARRAY coalesce(definitions, '{}') LOOP
    EXECUTE definition;
  END LOOP;
  INSERT INTO loan_list_counts SELECT participant_id, roles, count(*) FROM loan_list_entries GROUP BY participant_id, roles;
  ANALYZE loan_list_entries;
  ANALYZE loan_list_counts;
  PERFORM set_config('registry.loan_list_deferred', 'off', true);
END
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_on_loans_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    PERFORM loan_list_refresh(ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.uli, n.loan_type, n.status, n.trade_date, n.mortgagee_of_record, n.updated_at)
        IS DISTINCT FROM (o.uli, o.loan_type, o.status, o.trade_date, o.mortgagee_of_record, o.updated_at)
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_on_loans_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    DELETE FROM loan_list_entries WHERE loan_id IN (SELECT id FROM old_rows);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_on_parties_insert() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    PERFORM loan_list_refresh(ARRAY(SELECT DISTINCT loan_id FROM new_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_on_parties_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    PERFORM loan_list_refresh(ARRAY(SELECT loan_id FROM new_rows UNION SELECT loan_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_on_parties_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    PERFORM loan_list_refresh(ARRAY(SELECT DISTINCT loan_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION loan_list_on_participants_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT loan_list_deferred() THEN
    PERFORM loan_list_refresh(ARRAY(
      SELECT DISTINCT lp.loan_id FROM loan_parties lp
      WHERE lp.participant_id IN (SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.name IS DISTINCT FROM o.name)
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- loan_list_counts follows loan_list_entries (in participant order, so concurrent writers lock alike).
CREATE FUNCTION loan_list_on_entries_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF loan_list_deferred() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO loan_list_counts AS c (participant_id, roles, count)
    SELECT participant_id, roles, -count(*) FROM old_rows GROUP BY participant_id, roles ORDER BY participant_id, roles
    ON CONFLICT (participant_id, roles) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO loan_list_counts AS c (participant_id, roles, count)
    SELECT participant_id, roles, count(*) FROM new_rows GROUP BY participant_id, roles ORDER BY participant_id, roles
    ON CONFLICT (participant_id, roles) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER loan_list_loans_update AFTER UPDATE ON loans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_loans_update();
--> statement-breakpoint
CREATE TRIGGER loan_list_loans_delete AFTER DELETE ON loans REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_loans_delete();
--> statement-breakpoint
CREATE TRIGGER loan_list_parties_insert AFTER INSERT ON loan_parties REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_parties_insert();
--> statement-breakpoint
CREATE TRIGGER loan_list_parties_update AFTER UPDATE ON loan_parties REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_parties_update();
--> statement-breakpoint
CREATE TRIGGER loan_list_parties_delete AFTER DELETE ON loan_parties REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_parties_delete();
--> statement-breakpoint
CREATE TRIGGER loan_list_participants_update AFTER UPDATE ON participants REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_participants_update();
--> statement-breakpoint
CREATE TRIGGER loan_list_entries_insert AFTER INSERT ON loan_list_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_entries_change();
--> statement-breakpoint
CREATE TRIGGER loan_list_entries_update AFTER UPDATE ON loan_list_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_entries_change();
--> statement-breakpoint
CREATE TRIGGER loan_list_entries_delete AFTER DELETE ON loan_list_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loan_list_on_entries_change();
--> statement-breakpoint
-- Loans already present when this migration runs.
SELECT loan_list_rebuild();
