-- A finished batch download is offered to its owner once: the first request for its zip records
-- the moment, and the app offers (downloads with 'Download complete!') only a DONE job without one,
-- so a job that finished while the page reloaded is not lost and is not offered again.
ALTER TABLE "jobs" ADD COLUMN "delivered_at" timestamp with time zone;
