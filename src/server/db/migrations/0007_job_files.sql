-- The result file of a job (the batch download's zip), in chunks, so any server instance can
-- stream it and it survives restarts. A retried job deletes its partial chunks first.
CREATE TABLE "job_files" (
	"job_id" uuid NOT NULL,
	"chunk_no" integer NOT NULL,
	"bytes" bytea NOT NULL,
	CONSTRAINT "job_files_pkey" PRIMARY KEY("job_id","chunk_no")
);
--> statement-breakpoint
ALTER TABLE "job_files" ADD CONSTRAINT "job_files_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Zip entries are stored PDFs: PostgreSQL's own compression would cost time for little gain.
ALTER TABLE "job_files" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
