-- The audit trail of every write: who acted (identity, user, e-mail, the organization acted for),
-- the loan a change concerns, and a hash chain that makes an altered, removed or inserted row
-- evident. The chain is kept by a BEFORE INSERT trigger that locks the one-row chain head, so rows
-- are chained one after the other in the order their transactions reach it (chain_seq), whatever
-- their ids; decision record 0016 says why and what it costs. audit_row_content is the row as the
-- hash sees it; `npm run audit:verify` (src/server/audit/audit-verify.ts) recomputes it on its own.
ALTER TABLE "audit_log" ADD COLUMN "identity_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "acting_participant_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "loan_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE FUNCTION audit_row_content(r audit_log) RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
  SELECT jsonb_build_array(
    r.chain_seq, r.id, to_char(r.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    r.identity_id, r.actor_user_id, r.actor_email, r.acting_participant_id, r.participant_id, r.client_address,
    r.loan_id, r.action, r.target_type, r.target_id, r.before, r.after
  )::text
$$;
--> statement-breakpoint
CREATE TABLE "audit_chain_head" (
	"id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
-- The rows written before the chain existed are chained in id order.
DO $$
DECLARE
  r audit_log;
  prev text := '';
  seq bigint := 0;
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    seq := seq + 1;
    r.chain_seq := seq;
    r.prev_hash := prev;
    r.row_hash := encode(sha256(convert_to(prev || audit_row_content(r), 'UTF8')), 'hex');
    UPDATE audit_log SET chain_seq = r.chain_seq, prev_hash = r.prev_hash, row_hash = r.row_hash WHERE id = r.id;
    prev := r.row_hash;
  END LOOP;
  INSERT INTO audit_chain_head (id, seq, hash) VALUES (true, seq, prev);
END
$$;
--> statement-breakpoint
-- SECURITY DEFINER: the server's role never reads or writes the chain head itself (database.ts
-- revokes it), and whatever it inserts, the trigger sets the chain columns.
CREATE FUNCTION audit_log_chain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  head audit_chain_head;
BEGIN
  SELECT * INTO head FROM audit_chain_head WHERE id FOR UPDATE;
  NEW.chain_seq := head.seq + 1;
  NEW.prev_hash := head.hash;
  NEW.row_hash := encode(sha256(convert_to(head.hash || audit_row_content(NEW), 'UTF8')), 'hex');
  UPDATE audit_chain_head SET seq = NEW.chain_seq, hash = NEW.row_hash WHERE id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_seq_key" ON "audit_log" USING btree ("chain_seq");--> statement-breakpoint
CREATE INDEX "audit_log_loan_idx" ON "audit_log" USING btree ("loan_id","chain_seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id","chain_seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_id","chain_seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" USING btree ("occurred_at" DESC NULLS LAST,"chain_seq" DESC NULLS LAST);
