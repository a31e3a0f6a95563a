CREATE TABLE "identity_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"identity_id" uuid,
	"session_token_hash" text,
	"nonce" text,
	"factor_type" text,
	"factor_id" uuid,
	"destination" text,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"challenge" text,
	"return_to" text,
	"password_fingerprint" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identity_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "authentication_factors" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "authentication_factors" ADD COLUMN "credential_id" text;--> statement-breakpoint
ALTER TABLE "authentication_factors" ADD COLUMN "public_key" "bytea";--> statement-breakpoint
ALTER TABLE "authentication_factors" ADD COLUMN "sign_count" bigint;--> statement-breakpoint
ALTER TABLE "authentication_factors" ADD COLUMN "transports" jsonb;--> statement-breakpoint
ALTER TABLE "identities" ADD COLUMN "webauthn_user_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "verified_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_flows" ADD CONSTRAINT "identity_flows_identity_id_identities_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_identity_id_identities_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."identities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_flows_token_key" ON "identity_flows" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_flows_nonce_key" ON "identity_flows" USING btree ("nonce") WHERE "identity_flows"."nonce" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "identity_flows_expires_idx" ON "identity_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "recovery_codes_identity_idx" ON "recovery_codes" USING btree ("identity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "factors_credential_key" ON "authentication_factors" USING btree ("credential_id") WHERE "authentication_factors"."credential_id" IS NOT NULL;--> statement-breakpoint
-- The security events of sign-in security: factors, codes, presence, the second step, recovery.
ALTER TABLE "security_events" DROP CONSTRAINT "security_events_kind_check";--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_kind_check" CHECK (kind IN (
  'sign-in.success', 'sign-in.failure', 'sign-out', 'session.expired', 'session.revoked', 'password.changed',
  'password.change-refused', 'permission.refused', 'factor.enrolled', 'factor.removed', 'factor.code-sent',
  'factor.code-failed', 'presence.confirmed', 'presence.refused', 'sign-in.second-step', 'recovery-code.used',
  'password.reset-requested', 'password.reset'
));
