-- Issue 7: the inbox at scale and role transfers.
-- Messages: one index per view of the inbox, newest first with the id as tie-breaker (the default
-- view hides archived messages; archived=true shows them too), and a partial index that the
-- unread count reads alone (index-only), cheap enough for every screen.
DROP INDEX IF EXISTS "messages_participant_idx";
--> statement-breakpoint
CREATE INDEX "messages_participant_idx" ON "messages" USING btree ("participant_id","archived","created_at" DESC,"id" DESC);
--> statement-breakpoint
CREATE INDEX "messages_participant_created_idx" ON "messages" USING btree ("participant_id","created_at" DESC,"id" DESC);
--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("participant_id") WHERE NOT "read" AND NOT "archived";
--> statement-breakpoint
-- A request that one organization takes over a role on a loan: the role is PENDING until the
-- receiving organization answers the actionable message (message_id) it was sent.
CREATE TABLE "role_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"role" text NOT NULL,
	"requester_participant_id" uuid NOT NULL,
	"receiver_participant_id" uuid NOT NULL,
	"requested_by" uuid,
	"state" text NOT NULL,
	"message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "role_requests_state_check" CHECK ("state" IN ('PENDING', 'CONFIRMED', 'REJECTED'))
);
--> statement-breakpoint
ALTER TABLE "role_requests" ADD CONSTRAINT "role_requests_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_requests" ADD CONSTRAINT "role_requests_requester_participant_id_participants_id_fk" FOREIGN KEY ("requester_participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_requests" ADD CONSTRAINT "role_requests_receiver_participant_id_participants_id_fk" FOREIGN KEY ("receiver_participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_requests" ADD CONSTRAINT "role_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_requests" ADD CONSTRAINT "role_requests_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- At most one open request per loan and role: a second one is refused (409).
CREATE UNIQUE INDEX "role_requests_open_key" ON "role_requests" USING btree ("loan_id","role") WHERE "state" = 'PENDING';
--> statement-breakpoint
CREATE UNIQUE INDEX "role_requests_message_key" ON "role_requests" USING btree ("message_id");
--> statement-breakpoint
CREATE INDEX "role_requests_receiver_idx" ON "role_requests" USING btree ("receiver_participant_id","loan_id") WHERE "state" = 'PENDING';
