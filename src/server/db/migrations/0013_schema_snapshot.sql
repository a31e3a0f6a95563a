-- No change to the database. Migrations 0007 to 0012 were written by hand without drizzle-kit's
-- snapshots, so `npm run db:generate` diffed schema.ts against 0006's snapshot and wrote again
-- every table and column added since. This migration carries a snapshot of schema.ts as it is
-- (meta/0013_snapshot.json): the next generated migration holds only the next change. A test
-- (tests/server/migrations.test.ts) keeps schema.ts and the latest snapshot in step.
SELECT 1;
