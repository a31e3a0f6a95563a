-- Until this release a confirmed role transfer refreshed the asset list's entries while the
-- list's triggers were still deferred, so the day counts and totals of the organizations involved
-- kept the loan where it had been: a wrong total on the asset list and the dashboard's Assets
-- tile. The entries themselves were right. Both derived tables are recounted from them, as
-- loan_list_rebuild() fills them (the entries' triggers do not fire here: the entries stay).
LOCK TABLE loan_list_entries IN SHARE MODE;
--> statement-breakpoint
TRUNCATE loan_list_counts, loan_list_totals;
--> statement-breakpoint
INSERT INTO loan_list_counts
  SELECT participant_id, loan_list_day(updated_at), roles, count(*) FROM loan_list_entries GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO loan_list_totals SELECT participant_id, roles, sum(count) FROM loan_list_counts GROUP BY 1, 2;
--> statement-breakpoint
ANALYZE loan_list_counts;
--> statement-breakpoint
ANALYZE loan_list_totals;
