-- A role request can be canceled: when the requester no longer may transfer the role (an owner
-- asked for a new servicer, then the ownership moved on), the request is closed as CANCELED
-- instead of letting the receiver's answer still move the role. The role's party state when it
-- was asked for is kept, so a cancel puts it back.
ALTER TABLE "role_requests" ADD COLUMN "party_state_before" text;
--> statement-breakpoint
ALTER TABLE "role_requests" DROP CONSTRAINT "role_requests_state_check";
--> statement-breakpoint
ALTER TABLE "role_requests" ADD CONSTRAINT "role_requests_state_check" CHECK ("state" IN ('PENDING', 'CONFIRMED', 'REJECTED', 'CANCELED'));
