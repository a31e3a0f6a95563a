-- Issue 8 audit follow-up: a batch download keeps the loans it was started for, so its zip is
-- handed out only while the organization still holds a role on each (a loan may move on after).
ALTER TABLE "jobs" ADD COLUMN "loan_ids" uuid[];