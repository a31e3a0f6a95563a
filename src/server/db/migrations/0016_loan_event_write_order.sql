-- Events written by one transaction (a confirmed transfer and the requests it cancels) took the
-- same now() and the history ordered them by random id; clock_timestamp keeps their write order.
ALTER TABLE "loan_events" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp();