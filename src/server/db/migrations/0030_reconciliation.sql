-- Reconciliation against a loan tape: the job's details beside its jobs row, the uploaded tape in
-- chunks until its job is done (a restarted job reads it again), and the report, one row per difference.
CREATE TABLE "reconciliation_differences" (
	"job_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"line" integer,
	"uli" text,
	"loan_number" text,
	"field" text,
	"tape_value" text,
	"registry_value" text,
	"detail" text,
	CONSTRAINT "reconciliation_differences_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
--> statement-breakpoint
CREATE TABLE "reconciliation_tape_chunks" (
	"job_id" uuid NOT NULL,
	"chunk_no" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "reconciliation_tape_chunks_job_id_chunk_no_pk" PRIMARY KEY("job_id","chunk_no")
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"fields" text[] NOT NULL,
	"columns" jsonb NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"counts" jsonb
);
--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_tape_chunks" ADD CONSTRAINT "reconciliation_tape_chunks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_differences_kind_idx" ON "reconciliation_differences" USING btree ("job_id","kind","seq");--> statement-breakpoint
-- The staging of a tape while its job compares it: rows go in (COPY) and out again in the job's one
-- transaction, so no committed row ever stays. Unlogged: nothing here needs to survive a crash (an
-- attempt cut short starts over), and the server's role may not create temporary tables.
CREATE UNLOGGED TABLE "reconciliation_tape_rows" (
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"uli" text,
	"loan_number" text,
	"owner" text,
	"servicer" text,
	"sub_servicer" text,
	"controller" text,
	"secured_party" text,
	"status" text
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "reconciliation_tape_unreadable" (
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"detail" text NOT NULL
);
