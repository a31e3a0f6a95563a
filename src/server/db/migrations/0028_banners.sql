CREATE TABLE "banners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message" text NOT NULL,
	"apps" text[] NOT NULL,
	"variant" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"dismissable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "banners_created_idx" ON "banners" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- The banner file's rules kept by the database too: a banner names at least one app, and its variant is info or warn.
ALTER TABLE "banners" ADD CONSTRAINT "banners_apps_not_empty" CHECK (cardinality("apps") > 0);
--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_variant_check" CHECK ("variant" IN ('info', 'warn'));
